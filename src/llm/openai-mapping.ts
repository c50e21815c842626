import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { WireSettings } from "./capabilities.js";
import { strictSchemaViolations } from "./strict-json-schema.js";
import { fromTextReply, toTextProtocol } from "./text-tool-protocol.js";
import type { ChatMessage, ChatRequest, ToolCall } from "./types.js";

/** What shapes a request body besides the request: the model config's values and the settings. */
export interface WireContext {
  model: string;
  /** Used when the request sets none. */
  temperature: number;
  maxTokens: number;
  reasoningEffort?: string;
  extraBody?: Record<string, unknown>;
  settings: WireSettings;
}

/** The instruction that carries a schema when decoding is not constrained by it. */
export function schemaInstruction(schema: Record<string, unknown>): string {
  return `## Reply format\nReply with a single JSON object and nothing else (no prose, no code fences). It must match this JSON Schema:\n${JSON.stringify(schema)}`;
}

/**
 * Our request → the body of `POST /chat/completions`, in the form the settings say the server
 * takes: native tools or the text protocol; `response_format` json_schema (strict), json_object
 * or nothing — the schema rides in the system prompt only when decoding is not constrained by
 * it; `max_tokens`, `max_completion_tokens` or no limit; temperature sent or not.
 */
export function toOpenAIRequest(
  request: ChatRequest,
  context: WireContext,
): ChatCompletionCreateParamsNonStreaming {
  const { settings } = context;
  const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
  let messages = request.messages;
  if (tools && settings.tools === "text") messages = toTextProtocol(messages, tools);
  if (request.jsonSchema && settings.structuredOutput !== "json_schema")
    messages = withSystemText(messages, schemaInstruction(request.jsonSchema.schema));
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: context.model,
    messages: messages.map(toOpenAIMessage),
  };
  if (settings.temperature) body.temperature = request.temperature ?? context.temperature;
  const limit = request.maxTokens ?? context.maxTokens;
  if (settings.tokenLimit === "max_tokens") body.max_tokens = limit;
  if (settings.tokenLimit === "max_completion_tokens") body.max_completion_tokens = limit;
  if (request.seed !== undefined && settings.seed) body.seed = request.seed;
  if (tools && settings.tools === "native") {
    body.tools = tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.jsonSchema && settings.structuredOutput === "json_schema") {
    body.response_format = {
      type: "json_schema",
      json_schema: {
        name: request.jsonSchema.name,
        schema: request.jsonSchema.schema,
        // Strict only when the schema is inside the subset strict mode accepts (ours are).
        strict: strictSchemaViolations(request.jsonSchema.schema).length === 0,
      },
    };
  }
  if (request.jsonSchema && settings.structuredOutput === "json_object")
    body.response_format = { type: "json_object" };
  if (context.reasoningEffort)
    (body as { reasoning_effort?: string }).reasoning_effort = context.reasoningEffort;
  return { ...body, ...(context.extraBody ?? {}) };
}

/** Appends text to the first system message, or starts the conversation with one. */
function withSystemText(messages: ChatMessage[], text: string): ChatMessage[] {
  const index = messages.findIndex((message) => message.role === "system");
  if (index === -1) return [{ role: "system", content: text }, ...messages];
  const copy = [...messages];
  const content = (messages[index] as { content: string }).content.trim();
  copy[index] = { role: "system", content: content ? `${content}\n\n${text}` : text };
  return copy;
}

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", content: message.content, tool_call_id: message.toolCallId };
    case "assistant": {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

/** What a completion says, read defensively: OpenAI-compatible servers omit fields. */
export interface MappedCompletion {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  promptTokens: number;
  completionTokens: number;
  model: string | undefined;
}

interface LooseCompletion {
  model?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  choices?: Array<{
    finish_reason?: string | null;
    message?: {
      content?: unknown;
      refusal?: unknown;
      tool_calls?: Array<{
        id?: string;
        type?: string;
        function?: { name?: string; arguments?: unknown };
      }> | null;
    } | null;
  }>;
}

/**
 * A `chat.completion` body (already checked to be one, see `completion-check.ts`) → our
 * fields. A refusal is the model's answer and becomes the content; with the text protocol the
 * `CALL` lines become tool calls.
 */
export function fromOpenAIResponse(
  completion: unknown,
  options: { textTools?: boolean } = {},
): MappedCompletion {
  const body = (completion ?? {}) as LooseCompletion;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const base = {
    promptTokens: nonNegativeInt(body.usage?.prompt_tokens),
    completionTokens: nonNegativeInt(body.usage?.completion_tokens),
    model: typeof body.model === "string" ? body.model : undefined,
  };
  const message = choice?.message;
  const toolCalls: ToolCall[] = [];
  for (const [index, call] of (message?.tool_calls ?? []).entries()) {
    if (call.type !== undefined && call.type !== "function") continue;
    if (!call.function || typeof call.function.name !== "string") continue;
    toolCalls.push({
      // Some servers (llama.cpp builds, older vLLM) leave the id out; the tool reply must still pair up.
      id: call.id || `call_${index}`,
      name: call.function.name,
      arguments:
        typeof call.function.arguments === "string"
          ? call.function.arguments
          : JSON.stringify(call.function.arguments ?? {}),
    });
  }
  let content =
    typeof message?.content === "string"
      ? message.content
      : typeof message?.refusal === "string"
        ? message.refusal
        : null;
  if (options.textTools && toolCalls.length === 0) {
    const read = fromTextReply(content);
    content = read.content;
    toolCalls.push(...read.toolCalls);
  }
  return {
    content,
    toolCalls,
    finishReason: choice?.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    ...base,
  };
}

function nonNegativeInt(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
