import { redactSecrets as redactSecretValues } from "../safety/secrets.js";

/**
 * Task text, traces and outputs are untrusted input to the refiner roles: they reach a prompt
 * only as JSON strings inside the evidence block, cleaned and bounded here first.
 */

// Zero-width, joiner, bidi-control and BOM characters can hide instructions from a human reader.
const invisibleCharacters =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const htmlComments = /<!--[\s\S]*?(-->|$)/g;
/** Replaces secret-looking tokens (`sk-…`, `ghp_…`, `github_pat_…`) with `[redacted]`. */
export function redactSecrets(text: string): string {
  return redactSecretValues(text, { replacement: "[redacted]" });
}

/**
 * Cleans one untrusted string for a prompt: strips invisible characters and HTML comments,
 * redacts secrets, and bounds the length (keeping head and tail, marking what was cut).
 */
export function untrustedText(text: string, maxChars: number): string {
  const cleaned = redactSecrets(text.replace(invisibleCharacters, "").replace(htmlComments, ""));
  if (cleaned.length <= maxChars) return cleaned;
  const marker = ` …[${cleaned.length - maxChars} chars cut]… `;
  const keep = Math.max(0, maxChars - marker.length);
  const head = Math.ceil(keep * 0.7);
  return cleaned.slice(0, head) + marker + cleaned.slice(cleaned.length - (keep - head));
}

/**
 * Renders evidence as the fenced ```json block a role reads (docs/sim-protocol.md §2). Backticks
 * only occur inside JSON strings, so escaping them as \u0060 keeps untrusted text from closing
 * the fence while the JSON stays equal. `compact` leaves out the indentation (a prompt fitted to
 * a short context).
 */
export function evidenceBlock(evidence: unknown, options: { compact?: boolean } = {}): string {
  const json = JSON.stringify(evidence, null, options.compact ? undefined : 1).replace(
    /`/g,
    "\\u0060",
  );
  return `\`\`\`json\n${json}\n\`\`\``;
}
