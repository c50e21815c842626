import { createHash } from "node:crypto";
import type { ToolCall } from "./types.js";

/** A chat template's way of writing tool calls as text, when the server does not parse them. */
export type WrittenToolCallFormat = "hermes" | "llama" | "mistral";

/** Tool calls a model wrote into its text, the text left, and whose format they were in. */
export interface WrittenToolCalls {
  content: string | null;
  toolCalls: ToolCall[];
  format: WrittenToolCallFormat;
}

/** How each format reads in the summary. */
export const writtenFormatNames: Record<WrittenToolCallFormat, string> = {
  hermes: "Hermes/Qwen <tool_call>…</tool_call>",
  llama: "Llama <|python_tag|>",
  mistral: "Mistral [TOOL_CALLS]",
};

type Call = { name: string; arguments: string };

/** `{"name": …, "arguments"|"parameters": {…}}` → a call; undefined when it is not one. */
function callOf(value: unknown): Call | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const { name, arguments: args, parameters } = value as Record<string, unknown>;
  if (typeof name !== "string" || name === "") return undefined;
  const given = args ?? parameters ?? {};
  return { name, arguments: typeof given === "string" ? given : JSON.stringify(given) };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

const hermes = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

function readHermes(content: string): { calls: Call[]; rest: string } | undefined {
  if (!content.includes("<tool_call>")) return undefined;
  const calls = [...content.matchAll(hermes)].flatMap((match) => {
    const call = callOf(parse(match[1]));
    return call ? [call] : [];
  });
  return { calls, rest: content.replace(hermes, "") };
}

function readLlama(content: string): { calls: Call[]; rest: string } | undefined {
  const at = content.indexOf("<|python_tag|>");
  if (at === -1) return undefined;
  const tail = content
    .slice(at + "<|python_tag|>".length)
    .replace(/<\|(eom_id|eot_id)\|>/g, "")
    .trim();
  const calls = tail.split(/;\s*(?=\{)/).flatMap((part) => {
    const call = callOf(parse(part));
    return call ? [call] : [];
  });
  return { calls, rest: content.slice(0, at) };
}

function readMistral(content: string): { calls: Call[]; rest: string } | undefined {
  const at = content.indexOf("[TOOL_CALLS]");
  if (at === -1) return undefined;
  const tail = content.slice(at + "[TOOL_CALLS]".length).trim();
  const listed = parse(tail);
  const calls: Call[] = Array.isArray(listed)
    ? listed.flatMap((item) => {
        const call = callOf(item);
        return call ? [call] : [];
      })
    : // Newer templates: `[TOOL_CALLS]name[ARGS]{…}`, repeated.
      [...tail.matchAll(/([A-Za-z_][\w-]*)\[ARGS\](\{[\s\S]*?\})(?=\s*(?:\[TOOL_CALLS\]|$))/g)].map(
        (match) => ({ name: match[1], arguments: match[2] }),
      );
  return { calls, rest: content.slice(0, at) };
}

/**
 * Tool calls a model wrote as text in its chat template's own format — Hermes/Qwen
 * `<tool_call>{…}</tool_call>`, Llama `<|python_tag|>{"name":…,"parameters":…}`, Mistral
 * `[TOOL_CALLS][{…}]` — as a server without a (matching) tool parser passes them through.
 * Undefined when the content holds none. Ids derive from the content, so replays are identical.
 */
export function readWrittenToolCalls(content: string | null): WrittenToolCalls | undefined {
  if (!content) return undefined;
  for (const [format, read] of [
    ["hermes", readHermes],
    ["llama", readLlama],
    ["mistral", readMistral],
  ] as const) {
    const found = read(content);
    if (!found || found.calls.length === 0) continue;
    const stem = createHash("sha256").update(content).digest("hex").slice(0, 12);
    const text = found.rest.trim();
    return {
      content: text === "" ? null : text,
      toolCalls: found.calls.map((call, index) => ({ id: `call_${stem}_${index}`, ...call })),
      format,
    };
  }
  return undefined;
}
