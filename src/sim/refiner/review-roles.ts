import { harnessModules } from "../../config/harness-schema.js";
import { draw } from "../draw.js";
import { recognise } from "../families/recognise.js";
import type { World } from "../world-schema.js";
import { isObject, type JsonObject, list, objects, setting, text } from "./evidence.js";
import { parseChange } from "./fixes.js";

/** `hms` (Architect): one change per diagnosis that names a fix, minus objected or rejected ones. */
export function architect(block: JsonObject): JsonObject {
  const objected = objects(block.objections).map((objection) => text(objection.change));
  const rejected = JSON.stringify(block.rejected ?? []);
  const config = isObject(block.harness) ? block.harness.config : undefined;
  const changes = new Map<string, JsonObject>();
  for (const diagnosis of objects(block.diagnoses)) {
    const change = /Fix: (.+)$/s.exec(text(diagnosis.rootCause))?.[1]?.trim();
    if (!change) continue;
    if (
      objected.some(
        (objection) =>
          objection !== "" && (objection.includes(change) || change.includes(objection)),
      )
    )
      continue;
    const parsed = parseChange(change);
    if (!parsed) continue;
    const marker = "rule" in parsed ? parsed.rule : parsed.path;
    if (rejected.includes(marker)) continue;
    if ("path" in parsed && setting(config, parsed.path) === parsed.value) continue;
    const existing = changes.get(change);
    const patterns = [...list(existing?.patterns), text(diagnosis.patternId)];
    changes.set(change, {
      module: text(diagnosis.module) || "prompt",
      change,
      patterns,
      expectedEffect: `Fixes the failures of pattern(s) ${patterns.join(", ")}.`,
      regressionRisks:
        "rule" in parsed
          ? "One more rule costs a little accuracy everywhere."
          : "Low: a general runtime setting.",
    });
  }
  return { changes: [...changes.values()] };
}

const notNames =
  /^(When|Read|Double|Think|Avoid|Add|Set|End|If|The|Before|Answer|Use|Always|Never|Check|Be|Fixes|Low|One)$/;

/** Key phrases and expected answers the evidence shows: a change naming one is item-specific. */
function specifics(block: JsonObject): string[] {
  const found: string[] = [];
  for (const pattern of objects(block.patterns)) {
    for (const example of objects(pattern.examples)) {
      const keyPhrase = recognise(text(example.task))?.keyPhrase;
      if (keyPhrase) found.push(keyPhrase);
      if (example.expected !== undefined && text(example.expected).length > 2)
        found.push(text(example.expected));
    }
  }
  return found;
}

function namesEntity(change: string, known: string[]): boolean {
  if (known.some((phrase) => change.toLowerCase().includes(phrase.toLowerCase()))) return true;
  const rule = /Add rule: (.+)$/s.exec(change)?.[1] ?? "";
  return [...rule.matchAll(/\b([A-Z][a-z]+) ([A-Z][a-z]+)\b/g)].some(
    (match) => !notNames.test(match[1]),
  );
}

/** `critique` (Skeptic): objects to single-instance or entity-specific changes, with the world's strictness. */
export function skeptic(world: World, block: JsonObject, seed: number): JsonObject {
  const hms = isObject(block.hms) ? block.hms : {};
  const changes = objects(hms.changes);
  const known = specifics(block);
  const support = new Map<string, number>();
  for (const pattern of objects(block.patterns)) {
    const tasks = isObject(pattern.support) ? Number(pattern.support.tasks) || 0 : 0;
    support.set(text(pattern.id), Math.max(tasks, objects(pattern.examples).length));
  }
  const objections: JsonObject[] = [];
  for (const change of changes) {
    const description = text(change.change);
    const strict = (reason: string) =>
      draw(world.seed, "critique", description, reason, seed) < world.skeptic.strictness;
    const counts = list(change.patterns).map((id) => support.get(text(id)));
    const singleInstance =
      counts.length > 0 && counts.every((count) => count !== undefined && count <= 1);
    if (namesEntity(description, known) && strict("entity")) {
      objections.push({
        change: description,
        reason:
          "It names a specific task entity or answer: an item-specific accommodation, not a harness fix.",
      });
    } else if (singleInstance && strict("single")) {
      objections.push({
        change: description,
        reason: "It is supported by a single instance; it may be a model-specific slip.",
      });
    }
  }
  const verdict =
    objections.length === 0 ? "accept" : objections.length >= changes.length ? "reject" : "revise";
  return { verdict, objections };
}

/**
 * One edit as the Editor's reply carries it (the wire shape of src/harness's PlannedEdit; the
 * sim writes JSON as a model would and does not depend on the pipeline's types).
 */
interface EditorReplyEdit {
  module: string;
  patterns: string[];
  rationale: string;
  edit: { kind: "add_rule"; text: string } | { kind: "set"; path: string; value: unknown };
}

/** `edits` (Editor): planned edits for each HMS change in the sim's mini-language. */
export function editor(block: JsonObject): JsonObject {
  const hms = isObject(block.hms) ? block.hms : {};
  const edits: EditorReplyEdit[] = [];
  for (const change of objects(hms.changes)) {
    const parsed = parseChange(text(change.change));
    if (!parsed) continue;
    const moduleName = text(change.module);
    const module = (harnessModules as readonly string[]).includes(moduleName)
      ? moduleName
      : "prompt";
    const rationale = (text(change.expectedEffect) || text(change.change)).slice(0, 2000);
    const patterns = list(change.patterns).map(text);
    const edit: EditorReplyEdit["edit"] =
      "rule" in parsed
        ? { kind: "add_rule", text: parsed.rule }
        : { kind: "set", path: parsed.path, value: parsed.value };
    edits.push({ module, patterns, rationale, edit });
  }
  return { edits: edits as unknown as JsonObject[] };
}
