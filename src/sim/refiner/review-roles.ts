import { draw } from "../draw.js";
import { recognise } from "../families/recognise.js";
import type { World } from "../world-schema.js";
import { type JsonObject, list, objects, text } from "./evidence.js";
import { alreadyInEffect, harnessSeen } from "./fixes.js";
import { actionText, type FixAction, pick, readAction, renderAction } from "./wording.js";

const changeSentences = [
  (action: string, ids: string) => `${capitalise(action)}, so the failures of ${ids} stop.`,
  (action: string, ids: string) => `To address ${ids}: ${action}.`,
  (action: string, ids: string) => `${capitalise(action)} (this targets ${ids}).`,
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The fix a diagnosis proposes: after `Fix:` (tidy) or anywhere in the prose (plain-spoken). */
function proposedAction(rootCause: string): { action: FixAction; words: string } | null {
  const tidy = /Fix: (.+)$/s.exec(rootCause)?.[1]?.trim();
  const action = readAction(tidy ?? rootCause);
  return action ? { action, words: tidy ?? rootCause } : null;
}

/**
 * `hms` (Architect): one change per fix the diagnoses name, minus objected, rejected or already
 * applied ones, merged when two diagnoses name the same fix. Tidy: the change is the diagnosis's
 * own mini-language; plain-spoken: the Architect puts it in its own words.
 */
export function architect(world: World, block: JsonObject): JsonObject {
  const objected = objects(block.objections).map((objection) => text(objection.change));
  const rejected = JSON.stringify(block.rejected ?? []);
  const seen = harnessSeen(block);
  const changes = new Map<string, JsonObject>();
  const plain = world.refiner.style === "plainspoken";
  for (const diagnosis of objects(block.diagnoses)) {
    const proposed = proposedAction(text(diagnosis.rootCause));
    if (!proposed) continue;
    const { action } = proposed;
    const identity = JSON.stringify(action);
    const marker = action.kind === "set" ? action.path : action.text;
    if (rejected.includes(marker) || alreadyInEffect(action, seen)) continue;
    const existing = changes.get(identity);
    const patterns = [...list(existing?.patterns).map(text), text(diagnosis.patternId)];
    const words = plain
      ? pick(changeSentences, draw(world.seed, "architect", identity))(
          renderAction(action, "plainspoken", draw(world.seed, "architect-words", identity)),
          patterns.join(", "),
        )
      : proposed.words;
    if (
      objected.some(
        (objection) =>
          objection !== "" &&
          (objection.includes(proposed.words) ||
            proposed.words.includes(objection) ||
            objection.includes(marker)),
      )
    )
      continue;
    changes.set(identity, {
      module: text(diagnosis.module) || "prompt",
      change: existing ? text(existing.change) : words,
      patterns,
      expectedEffect: `Fixes the failures of pattern(s) ${patterns.join(", ")}.`,
      regressionRisks:
        action.kind === "set"
          ? "Low: a general runtime setting."
          : "One more instruction in the prompt costs a little accuracy everywhere.",
    });
  }
  return { changes: [...changes.values()] };
}

const notNames =
  /^(When|Read|Double|Think|Avoid|Add|Set|End|If|The|Before|Answer|Use|Always|Never|Check|Be|Fixes|Low|One|To|This)$/;

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
  const added = actionText(readAction(change));
  return [...added.matchAll(/\b([A-Z][a-z]+) ([A-Z][a-z]+)\b/g)].some(
    (match) => !notNames.test(match[1]),
  );
}

/** `critique` (Skeptic): objects to single-instance or entity-specific changes, with the world's strictness. */
export function skeptic(world: World, block: JsonObject, seed: number): JsonObject {
  const hms = (block.hms as JsonObject | undefined) ?? {};
  const changes = objects(hms.changes);
  const known = specifics(block);
  // The evidence behind a change is the distinct examples its patterns show, not the support
  // they claim: "9 tasks" with one example shown is a single instance.
  const support = new Map<string, number>();
  for (const pattern of objects(block.patterns)) {
    const distinct = new Set(objects(pattern.examples).map((example) => text(example.task)));
    support.set(text(pattern.id), distinct.size);
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
