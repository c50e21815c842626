import type { EvolveResult } from "../evolve/result-schema.js";
import type { Score } from "../evolve/validation.js";

/** A proportion as a percentage with one decimal. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/**
 * `71.0% [62.1–78.6] (n=100)`, and `(n=98, 2 infra errors not scored)` when rollouts did not
 * reach the model: the accuracy is over the tasks that did.
 */
export function formatScore(score: Score): string {
  const infra = score.infraErrors
    ? `, ${score.infraErrors} infra error${score.infraErrors === 1 ? "" : "s"} not scored`
    : "";
  return `${percent(score.accuracy)} [${(score.interval[0] * 100).toFixed(1)}–${(score.interval[1] * 100).toFixed(1)}] (n=${score.n}${infra})`;
}

/**
 * One line per capability step an endpoint forced (`tools: native → text for model 'x'
 * (server said …)`), for the summary and the report; empty when there was none.
 */
export function downgradeLines(result: EvolveResult): string[] {
  return (result.endpoints?.downgrades ?? []).map(
    (step) =>
      `${step.parameter}: ${step.from} → ${step.to} for model '${step.model}' at ${step.endpoint}${step.remembered ? " (remembered from an earlier run)" : ""} — ${clip(step.reason, 300)}`,
  );
}

/** Signed difference in percentage points. */
export function formatDelta(before: number, after: number): string {
  const points = (after - before) * 100;
  return `${points >= 0 ? "+" : "−"}${Math.abs(points).toFixed(1)} pts`;
}

/** Cuts text to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Text made safe for one Markdown table cell: no pipes, no line breaks, no HTML. */
export function cell(text: string, max = 200): string {
  return clip(text, max)
    .replace(/\r?\n/g, " ")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * Untrusted text as one inline code span for a table cell: the fence is longer than any backtick
 * run inside, so the text cannot close it, and inside it nothing is Markdown, HTML or a mention
 * (`@org/team` does not ping). No line breaks; pipes escaped (GFM reads `\|` as `|` in a cell).
 */
export function codeSpan(text: string, max = 200): string {
  const flat = clip(text, max).replace(/\r?\n/g, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  if (flat.trim() === "") return "` `";
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run in the text, so untrusted text cannot close it. */
export function fenced(text: string, language = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Compact JSON of a role's output for display. */
export function compactJson(value: unknown, max = 1200): string {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 1);
  return clip(text ?? "", max);
}

/** USD with enough digits for small sim costs. */
export function usd(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}
