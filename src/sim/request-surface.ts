import type { SimMessage, SimRequest } from "./sim-request.js";

/** What the agent-side sim reads from a request's surface (docs/sim-protocol.md §1.1). */
export interface RequestSurface {
  systemMessages: string[];
  /** Tools offered natively. */
  nativeTools: Set<string>;
  /** Tools listed under a `## Tools` section (text protocol). */
  textTools: Set<string>;
  formatInstruction: boolean;
  guidedBySystem: boolean;
  ruleCount: number;
  reprompted: boolean;
}

const toolNames = ["calculator", "lookup"];

function isSystem(message: SimMessage): boolean {
  return message.role === "system" || message.role === "developer";
}

/** Splits a system message into the `## Tools` section and the rest. */
function toolsSection(text: string): { tools: string; rest: string } {
  const at = text.search(/^## Tools\s*$/m);
  if (at < 0) return { tools: "", rest: text };
  const after = text.slice(at);
  const next = after.slice(1).search(/^## /m);
  const end = next < 0 ? text.length : at + 1 + next;
  return { tools: text.slice(at, end), rest: text.slice(0, at) + text.slice(end) };
}

/** Reads the request surface: tools offered, instructions present, rule count. */
export function readSurface(request: SimRequest): RequestSurface {
  const systemMessages = request.messages.filter(isSystem).map((message) => message.content);
  const textTools = new Set<string>();
  let ruleCount = 0;
  let formatInstruction = false;
  let guidedBySystem = false;
  for (const text of systemMessages) {
    const { tools, rest } = toolsSection(text);
    for (const name of toolNames)
      if (new RegExp(`\\b${name}\\b`, "i").test(tools)) textTools.add(name);
    ruleCount += rest.split("\n").filter((line) => /^\s*[-*] \S/.test(line)).length;
    if (rest.includes("Answer:") && /\b(final|format|end)\b|last line/i.test(rest))
      formatInstruction = true;
    if (
      /\b(error|errors|fail|fails|failed|failure|failures)\b/i.test(rest) &&
      /\bretry|try again|\bfix|\bcorrect/i.test(rest)
    ) {
      guidedBySystem = true;
    }
  }
  const users = request.messages.filter((message) => message.role === "user");
  const latest = users.at(-1)?.content ?? "";
  return {
    systemMessages,
    nativeTools: new Set(request.tools),
    textTools,
    formatInstruction,
    guidedBySystem,
    ruleCount,
    reprompted: users.length > 1 && latest.includes("Answer:"),
  };
}

/** Whether a system message names the item's key phrase (an item-specific hint). */
export function hintedItem(surface: RequestSurface, keyPhrase: string): boolean {
  const needle = keyPhrase.toLowerCase();
  return surface.systemMessages.some((text) => text.toLowerCase().includes(needle));
}

/** How the sim may call a tool: natively, by the text protocol, or not at all. */
export function toolChannel(surface: RequestSurface, name: string): "native" | "text" | null {
  if (surface.nativeTools.has(name)) return "native";
  if (surface.textTools.has(name)) return "text";
  return null;
}
