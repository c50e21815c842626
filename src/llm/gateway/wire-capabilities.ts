import { schemaInstruction } from "../capabilities/structured-output.js";
import type { WireSettings } from "../capabilities.js";
import { fromTextReply, renderToolsSection, textResultMessage } from "../text-tool-protocol.js";
import type { ToolSpec } from "../types.js";
import type { WireApi, WireBody } from "./wire.js";

/**
 * The one place the gateway meets the capability ladders (src/llm `capabilities.ts`): the
 * agent's own body, rewritten into the form the shared `CapabilityState` says this endpoint and
 * model take now. Only what the agent sent is changed, never added: a refused `temperature` or
 * `seed` is dropped; `max_tokens` ⇄ `max_completion_tokens` follows the token-limit step (or is
 * dropped at `none`); a `json_schema` response format becomes `json_object` or goes, the schema
 * riding in the system message; native function tools become the text protocol, and the reply
 * is read back into native `tool_calls` (`readTextTools`). The Responses API steps only
 * `temperature`. `textTools` says whether the reply must be read back.
 */
export function adaptToSettings(
  api: WireApi,
  agentBody: WireBody,
  settings: WireSettings,
): { body: WireBody; textTools: boolean } {
  const body: WireBody = { ...agentBody };
  if (api === "embeddings") return { body, textTools: false };
  if (!settings.temperature) delete body.temperature;
  if (api !== "chat") return { body, textTools: false };
  if (!settings.seed) delete body.seed;
  stepTokenLimit(body, settings.tokenLimit);
  stepResponseFormat(body, settings.structuredOutput);
  const tools = functionTools(body.tools);
  const textTools = settings.tools === "text" && tools.length > 0;
  if (textTools) toTextTools(body, tools);
  return { body, textTools };
}

function stepTokenLimit(body: WireBody, form: WireSettings["tokenLimit"]): void {
  const limit = body.max_completion_tokens ?? body.max_tokens;
  if (limit === undefined) return;
  delete body.max_tokens;
  delete body.max_completion_tokens;
  if (form !== "none") body[form] = limit;
}

function stepResponseFormat(body: WireBody, form: WireSettings["structuredOutput"]): void {
  const format = body.response_format as
    | { type?: string; json_schema?: { schema?: Record<string, unknown> } }
    | undefined;
  if (format?.type !== "json_schema" || form === "json_schema") return;
  const schema = format.json_schema?.schema ?? {};
  if (form === "json_object") body.response_format = { type: "json_object" };
  else delete body.response_format;
  body.messages = withSystemText(body.messages, schemaInstruction(schema));
}

type WireMessage = {
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
};

function functionTools(tools: unknown): ToolSpec[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .filter((tool) => tool?.type === "function" && tool.function?.name)
    .map((tool) => ({
      name: String(tool.function.name),
      description: String(tool.function.description ?? ""),
      parameters: (tool.function.parameters as Record<string, unknown>) ?? {},
    }));
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}

function withSystemText(messages: unknown, text: string): WireMessage[] {
  const list = (Array.isArray(messages) ? messages : []) as WireMessage[];
  const at = list.findIndex((message) => message.role === "system" || message.role === "developer");
  if (at < 0) return [{ role: "system", content: text }, ...list];
  const current = textOf(list[at].content).trim();
  const merged = { ...list[at], content: current ? `${current}\n\n${text}` : text };
  return list.map((message, index) => (index === at ? merged : message));
}

/** The text protocol on the wire: tools in the system message, calls as `CALL`, results as `RESULT`. */
function toTextTools(body: WireBody, tools: ToolSpec[]): void {
  const names = new Map<string, string>();
  const messages = ((body.messages ?? []) as WireMessage[]).map((message): WireMessage => {
    if (message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0) {
      const calls = message.tool_calls ?? [];
      for (const call of calls) names.set(call.id ?? "", call.function?.name ?? "tool");
      const lines = calls.map(
        (call) => `CALL ${call.function?.name} ${call.function?.arguments ?? "{}"}`,
      );
      const text = textOf(message.content).trim();
      return { role: "assistant", content: (text ? [text, ...lines] : lines).join("\n") };
    }
    if (message.role === "tool") {
      const name = names.get(message.tool_call_id ?? "") ?? "tool";
      return { role: "user", content: textResultMessage(name, textOf(message.content)) };
    }
    return message;
  });
  body.messages = withSystemText(messages, `## Tools\n${renderToolsSection(tools).trim()}`);
  delete body.tools;
  delete body.tool_choice;
  delete body.parallel_tool_calls;
}

/** A chat reply to a text-protocol request, its `CALL` lines read back as native `tool_calls`. */
export function readTextTools(reply: WireBody): WireBody {
  if (!Array.isArray(reply.choices)) return reply;
  const choices = reply.choices.map((choice) => {
    const message = choice?.message;
    const read = fromTextReply(typeof message?.content === "string" ? message.content : null);
    if (read.toolCalls.length === 0) return choice;
    const toolCalls = read.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
    return {
      ...choice,
      message: { ...message, content: read.content, tool_calls: toolCalls },
      finish_reason: "tool_calls",
    };
  });
  return { ...reply, choices };
}
