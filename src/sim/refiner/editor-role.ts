import { harnessModules } from "../../config/harness-schema.js";
import { draw } from "../draw.js";
import type { SimRequest } from "../sim-request.js";
import type { World } from "../world-schema.js";
import { type JsonObject, list, objects, text } from "./evidence.js";
import { type HarnessSeen, harnessSeen, promptFile } from "./fixes.js";
import { type FixAction, pick, readAction } from "./wording.js";

type Operation = Record<string, string | number | boolean>;

/** chatJson's repair note: asked to correct a reply, a model does not repeat its slips. */
const repairNote = "Note about your previous reply";

/**
 * `edits` (Editor): one planned edit per HMS change it can read. A config change becomes a
 * `set`; a rule a rule line (built-in) or a sentence in the prompt file (command harness); an
 * instruction for a prompt file a `replace_text` after the last line shown of that file (or a
 * `write_file` for a new file). With the world's `schemaSlips`, an edit comes back with one of
 * the slips real models make — never in a reply to a repair note.
 */
export function editor(world: World, request: SimRequest, block: JsonObject): JsonObject {
  const hms = (block.hms as JsonObject | undefined) ?? {};
  const seen = harnessSeen(block);
  const repairing = request.messages.some(
    (message) => message.role === "user" && message.content.includes(repairNote),
  );
  const edits: JsonObject[] = [];
  for (const change of objects(hms.changes)) {
    const action = readAction(text(change.change));
    const operation = action ? operationFor(action, seen) : null;
    if (!operation) continue;
    const planned = {
      module: moduleOf(text(change.module), seen),
      patterns: list(change.patterns).map(text),
      rationale: (text(change.expectedEffect) || text(change.change)).slice(0, 2000),
      edit: operation,
    };
    const slipped =
      !repairing && draw(world.seed, "slip", text(change.change)) < world.refiner.schemaSlips;
    edits.push(
      slipped ? slip(planned, draw(world.seed, "slip-kind", text(change.change))) : planned,
    );
  }
  return { edits };
}

function moduleOf(name: string, seen: HarnessSeen): string {
  if (seen.kind === "command") return "command";
  return (harnessModules as readonly string[]).includes(name) ? name : "prompt";
}

function operationFor(action: FixAction, seen: HarnessSeen): Operation | null {
  if (action.kind === "set")
    return seen.kind === "builtin" ? { kind: "set", path: action.path, value: action.value } : null;
  if (action.kind === "rule" && seen.kind === "builtin")
    return { kind: "add_rule", text: action.text };
  const file = action.kind === "instruct" ? action.file : promptFile(seen);
  if (!file) return null;
  const shown = seen.files.find((candidate) => candidate.path === file);
  if (!shown) return { kind: "write_file", file, content: `${action.text}\n` };
  if (shown.content.includes(action.text)) return null;
  const lines = shown.content.split("\n").filter((line) => line.trim() !== "");
  const anchor = [...lines].reverse().find((line) => shown.content.split(line).length === 2);
  if (anchor)
    return { kind: "replace_text", file, find: anchor, replace: `${anchor}\n${action.text}` };
  return shown.whole
    ? {
        kind: "write_file",
        file,
        content: `${shown.content.replace(/\n*$/, "\n")}${action.text}\n`,
      }
    : null;
}

/** One of the slips real models make in structured edits (most are harmless; one needs a repair). */
function slip(planned: { edit: Operation } & JsonObject, unit: number): JsonObject {
  const { edit } = planned;
  const unwrapped = () => {
    const { edit: _omitted, ...rest } = planned;
    return { ...rest, ...edit };
  };
  if (edit.kind === "set")
    return pick(
      [
        () => ({ ...planned, edit: { ...edit, file: "harness.yaml" } }),
        () => ({ ...planned, edit: { ...edit, value: String(edit.value) } }),
        unwrapped,
      ],
      unit,
    )();
  if (edit.kind === "replace_text")
    return pick(
      [
        () => ({
          ...planned,
          edit: { kind: "replace_text", file: edit.file, old: edit.find, new: edit.replace },
        }),
        // Copied loosely: one trailing space the file does not have. Only a repair fixes this.
        () => ({ ...planned, edit: { ...edit, find: `${edit.find} ` } }),
      ],
      unit,
    )();
  if (edit.kind === "add_rule")
    return pick(
      [unwrapped, () => ({ ...planned, edit: { kind: "add_rule", rule: edit.text } })],
      unit,
    )();
  return unwrapped();
}
