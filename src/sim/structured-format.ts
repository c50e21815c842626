import type { Quirk } from "./world-schema.js";

/** Renders a structured reply the way the configured server quirks would. */
export function formatStructured(value: unknown, quirks: Set<Quirk>): string {
  const json = JSON.stringify(value);
  if (quirks.has("ignore-response-format")) {
    return `Here is my analysis.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n\nLet me know if you need more detail.`;
  }
  if (quirks.has("fenced-json")) return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  if (quirks.has("prose-json"))
    return `Sure, here is the JSON you asked for:\n${json}\nI hope this helps.`;
  return json;
}
