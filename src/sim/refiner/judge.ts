import type { SimRequest } from "../sim-request.js";
import { type JsonObject, text } from "./evidence.js";

/** Trims what a model writes around a value: emphasis, code ticks, quotes, a trailing period, case. */
function plain(value: string): string {
  return value
    .trim()
    .replace(/^(\*\*|__|\*|_|`|"|')+|(\*\*|__|\*|_|`|"|')+$/g, "")
    .replace(/\.+$/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

function sameValue(answer: string, reference: string): boolean {
  const a = plain(answer);
  const r = plain(reference);
  if (a === r) return true;
  const [x, y] = [Number(a.replace(/,/g, "")), Number(r.replace(/,/g, ""))];
  return (
    a !== "" &&
    r !== "" &&
    Number.isFinite(x) &&
    Number.isFinite(y) &&
    Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(y))
  );
}

/** Whether the output states the reference as a value of its own (a number or a word, not inside another). */
function statesValue(output: string, reference: string): boolean {
  const target = plain(reference);
  if (target === "") return false;
  const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.-])${escaped}($|[^\\w-]|\\.(\\s|$))`, "i").test(output.toLowerCase());
}

/**
 * `judgement` (the llm_judge scorer): grades the agent's answer against the reference as a model
 * would. The extracted answer counts when it is the reference up to case, Markdown marks and
 * number formatting; with no extracted answer, a lenient rubric still passes an output that
 * states the reference, a strict one (asking for the exact answer or its format) does not.
 */
export function judge(request: SimRequest, block: JsonObject): JsonObject {
  const rubric = request.messages
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n");
  const strict = /\b(exact|exactly|strict|strictly|format|answer line)\b/i.test(rubric);
  const reference = text(block.reference);
  const answer = block.answer === null || block.answer === undefined ? null : text(block.answer);
  const output = text(block.output);
  let pass: boolean;
  let reason: string;
  if (answer !== null && sameValue(answer, reference)) {
    [pass, reason] = [true, "The answer matches the reference."];
  } else if (answer !== null) {
    [pass, reason] = [false, "The answer differs from the reference."];
  } else if (!strict && statesValue(output, reference)) {
    [pass, reason] = [true, "No answer line, but the reply states the reference value."];
  } else {
    [pass, reason] = [false, "The reply gives no answer matching the reference."];
  }
  return { pass, score: pass ? 1 : 0, reason };
}
