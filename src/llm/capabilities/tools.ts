import { toTextProtocol } from "../text-tool-protocol.js";
import { fromWireMessage, fromWireTool, toWireMessage } from "../wire-messages.js";
import { readWrittenToolCalls, writtenFormatNames } from "../written-tool-calls.js";
import type { Capability, ChatBody } from "./capability.js";

type ToolMode = "native" | "text";

/** Ollama, vLLM without a tool parser, llama.cpp without `--jinja`, LM Studio and others. */
const noTools =
  /does not support tools|--enable-auto-tool-choice|tools param requires --jinja|Unsupported param: tools|tool[ _-]?(call|choice|use)s? (is |are )?not supported|tools? (is |are )?not supported|does not support (function|tool) call/i;

/**
 * Tools offered natively (`tools`), or in the text protocol: listed under `## Tools` in the
 * system prompt, called by `CALL <name> <json>` lines, results sent back as `RESULT` user
 * messages (`text-tool-protocol.ts`). The provider reads `CALL` lines back as native calls, so
 * callers see native calls either way. A model that writes its calls in its template's own text
 * format while tools are offered natively (a server without a tool parser) is detected from the
 * reply and stepped down too.
 */
export const tools: Capability<ToolMode> = {
  name: "tools",
  parameters: ["tools"],
  initial: (config) => (config.capabilities.tools === "text" ? "text" : "native"),
  auto: (config) => config.capabilities.tools === "auto",
  refusedBy: (refusal) => noTools.test(refusal.message),
  next: (current) => (current === "native" ? "text" : undefined),
  describe: (value) => value,
  map: (body, value) => (value === "text" ? toTextTools(body) : body),
  observe: (reply, value, body) => {
    const offered = Array.isArray(body.tools) && body.tools.length > 0;
    if (value !== "native" || !offered || reply.toolCalls > 0) return undefined;
    const written = readWrittenToolCalls(reply.content);
    if (!written) return undefined;
    return `the model wrote its tool calls as text (${writtenFormatNames[written.format]}) although tools were offered natively: the server does not parse them (vLLM: --tool-call-parser for this model); they were read from the text, and tools go in the text protocol from now on`;
  },
  fix: () => "set model.capabilities.tools to text (or auto)",
};

/** A body with native tools rewritten for the text protocol (no `tools` field left). */
function toTextTools(body: ChatBody): ChatBody {
  const { tools: offered, tool_choice, parallel_tool_calls, ...rest } = body;
  const specs = (Array.isArray(offered) ? offered : []).flatMap((tool) => {
    const spec = fromWireTool(tool);
    return spec ? [spec] : [];
  });
  if (specs.length === 0) return rest;
  const messages = (Array.isArray(body.messages) ? body.messages : []).map(fromWireMessage);
  return { ...rest, messages: toTextProtocol(messages, specs).map(toWireMessage) };
}
