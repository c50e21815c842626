import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { type ChatBody, mapBody, type WireSettings } from "./capabilities.js";
import { strictSchemaViolations } from "./strict-json-schema.js";
import { fromTextReply } from "./text-tool-protocol.js";
import type { ChatRequest, ToolCall } from "./types.js";
import { toWireMessage, toWireTool } from "./wire-messages.js";

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

/**
 * Our request → the body of `POST /chat/completions`: built at its richest (native tools,
 * json_schema — strict when the schema is inside the strict subset —, `max_tokens`, temperature,
 * seed, reasoning effort, the config's extra fields), then mapped by the capability records to the
 * form the settings say the server takes (`capabilities.ts` `mapBody`).
 */
export function toOpenAIRequest(
  request: ChatRequest,
  context: WireContext,
): ChatCompletionCreateParamsNonStreaming {
  const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
  const body: ChatBody = {
    model: context.model,
    messages: request.messages.map(toWireMessage),
    temperature: request.temperature ?? context.temperature,
    max_tokens: request.maxTokens ?? context.maxTokens,
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(tools ? { tools: tools.map(toWireTool) } : {}),
    ...(request.jsonSchema
      ? {
          response_format: {
            type: "json_schema",
            json_schema: {
              name: request.jsonSchema.name,
              schema: request.jsonSchema.schema,
              // Strict only when the schema is inside the subset strict mode accepts (ours are).
              strict: strictSchemaViolations(request.jsonSchema.schema).length === 0,
            },
          },
        }
      : {}),
    ...(context.reasoningEffort ? { reasoning_effort: context.reasoningEffort } : {}),
  };
  const mapped = mapBody(body, context.settings);
  return {
    ...mapped,
    ...(context.extraBody ?? {}),
  } as unknown as ChatCompletionCreateParamsNonStreaming;
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
