import type { SimMessage, SimRequest } from "./sim-request.js";

/** What the agent-side sim reads from a request's surface (docs/sim-protocol.md §1.1). */
export interface RequestSurface {
  systemMessages: string[];
  /** Tools offered natively. */
  nativeTools: Set<string>;
  /** Tools listed under a `## Tools` section (text protocol). */
  textTools: Set<string>;
  formatInstruction: boolean;
  /** The answer label the format instruction names, as the model will write it (`Answer:` by default). */
  answerLabel: string;
  guidedBySystem: boolean;
  ruleCount: number;
  reprompted: boolean;
}

const toolNames = ["calculator", "lookup"];

/** A labelled answer line: `Answer:` in any case or emphasis, `Final answer:`, "answer line", "a line starting with Answer". */
const answerLineNamed =
  /(\*\*|__)?\b(final )?answer(\*\*|__)?\s*:|\banswer[- ]line\b|\b(start|begin|prefix)\w*\b[^.\n]{0,40}\banswer\b/i;
/** Words that make it an instruction about where or how to write it. */
const formatDirective =
  /\b(final|format|end|ending|last|line|always|finish|conclude|close|form|must|give|write|state|put|reply|respond|return)\b/i;
/** A mention of a failing tool call … */
const toolFailure =
  /\b(error|errors|fail|fails|failed|failure|failures|invalid|rejected|malformed|wrong)\b/i;
/** … and a way to recover from it. */
const recovery =
  /\bretry|\btry again|\bcall (it|the tool|them) again|\bre-?issue|\bfix|\bcorrect|\badjust|\brepair|\brephrase|\b(don't|do not|never) give up/i;

/** The answer label a format instruction names (case and emphasis kept), `Answer:` when none. */
function labelOf(text: string): string {
  const match = /(\*\*|__)?\b((?:final )?answer)(\*\*|__)?\s*:(\*\*|__)?/i.exec(text);
  if (!match) return "Answer:";
  const [whole] = match;
  return whole.trim();
}

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
  let answerLabel = "Answer:";
  let guidedBySystem = false;
  for (const text of systemMessages) {
    const { tools, rest } = toolsSection(text);
    for (const name of toolNames)
      if (new RegExp(`\\b${name}\\b`, "i").test(tools)) textTools.add(name);
    ruleCount += rest.split("\n").filter((line) => /^\s*[-*] \S/.test(line)).length;
    for (const sentence of rest.split(/(?<=[.!?])\s+|\n/)) {
      if (answerLineNamed.test(sentence) && formatDirective.test(sentence)) {
        formatInstruction = true;
        answerLabel = labelOf(sentence);
      }
      if (toolFailure.test(sentence) && recovery.test(sentence)) guidedBySystem = true;
    }
  }
  const users = request.messages.filter((message) => message.role === "user");
  const latest = users.at(-1)?.content ?? "";
  return {
    systemMessages,
    nativeTools: new Set(request.tools),
    textTools,
    formatInstruction,
    answerLabel,
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
