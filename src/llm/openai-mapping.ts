import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { type ChatBody, mapBody, type WireReply, type WireSettings } from "./capabilities.js";
import { strictSchemaViolations } from "./strict-json-schema.js";
import { fromTextReply } from "./text-tool-protocol.js";
import type { ChatRequest, ToolCall } from "./types.js";
import { toWireMessage, toWireTool } from "./wire-messages.js";
import { readWrittenToolCalls, type WrittenToolCallFormat } from "./written-tool-calls.js";

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
  /** Billed completion tokens, reasoning included wherever the server reported it. */
  completionTokens: number;
  model: string | undefined;
  /** The model's reasoning when the server returns it apart (`reasoning_content`, `reasoning`). */
  reasoning?: string;
  /** The content is the model's refusal (`message.refusal`). */
  refused?: boolean;
  /** The tool calls were written as text in this template format (no parser on the server). */
  writtenToolCalls?: WrittenToolCallFormat;
}

interface LooseUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  total_tokens?: unknown;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
}

interface LooseMessage {
  content?: unknown;
  refusal?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: Array<{
    id?: string;
    type?: string;
    function?: { name?: string; arguments?: unknown };
  }> | null;
}

interface LooseCompletion {
  model?: unknown;
  usage?: LooseUsage | null;
  choices?: Array<{ finish_reason?: string | null; message?: LooseMessage | null }>;
}

/** Longest reasoning kept on a response (it is for messages and reports, not for replay). */
const maxReasoningChars = 2_000;

/**
 * A `chat.completion` body (already checked to be one, see `completion-check.ts`) → our
 * fields. A refusal is the model's answer and becomes the content; with the text protocol the
 * `CALL` lines become tool calls; tool calls a model wrote in its template's own format (Hermes,
 * Llama, Mistral) become tool calls when tools were offered; reasoning returned apart is kept
 * apart (never the content).
 */
export function fromOpenAIResponse(
  completion: unknown,
  options: { textTools?: boolean; offeredTools?: boolean } = {},
): MappedCompletion {
  const body = (completion ?? {}) as LooseCompletion;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = choice?.message;
  const toolCalls = nativeToolCalls(message);
  const refused = typeof message?.content !== "string" && typeof message?.refusal === "string";
  let content =
    typeof message?.content === "string"
      ? message.content
      : typeof message?.refusal === "string"
        ? message.refusal
        : null;
  let writtenToolCalls: WrittenToolCallFormat | undefined;
  if (options.textTools && toolCalls.length === 0) {
    const read = fromTextReply(content);
    content = read.content;
    toolCalls.push(...read.toolCalls);
  }
  if ((options.textTools || options.offeredTools) && toolCalls.length === 0) {
    const written = readWrittenToolCalls(content);
    if (written) {
      content = written.content;
      toolCalls.push(...written.toolCalls);
      writtenToolCalls = written.format;
    }
  }
  const reasoning = reasoningOf(message);
  return {
    content,
    toolCalls,
    finishReason: choice?.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    ...tokensOf(body.usage),
    model: typeof body.model === "string" ? body.model : undefined,
    ...(reasoning ? { reasoning } : {}),
    ...(refused ? { refused } : {}),
    ...(writtenToolCalls && !options.textTools ? { writtenToolCalls } : {}),
  };
}

/** The raw facts of a completion the capability records read (`observe`). */
export function wireReplyOf(completion: unknown): WireReply {
  const body = (completion ?? {}) as LooseCompletion;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = choice?.message;
  return {
    content: typeof message?.content === "string" ? message.content : null,
    toolCalls: Array.isArray(message?.tool_calls) ? message.tool_calls.length : 0,
    finishReason: choice?.finish_reason ?? undefined,
    refused: typeof message?.refusal === "string",
  };
}

function nativeToolCalls(message: LooseMessage | null | undefined): ToolCall[] {
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
  return toolCalls;
}

function reasoningOf(message: LooseMessage | null | undefined): string | undefined {
  const text = [message?.reasoning_content, message?.reasoning].find(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
  return text?.slice(0, maxReasoningChars);
}

/**
 * Tokens to bill. OpenAI counts reasoning inside `completion_tokens` (and details it in
 * `completion_tokens_details.reasoning_tokens`); some servers report reasoning only in the
 * details, and some gateways only in `total_tokens`. Whichever holds more is billed.
 */
function tokensOf(usage: LooseUsage | null | undefined) {
  const promptTokens = nonNegativeInt(usage?.prompt_tokens);
  const completion = nonNegativeInt(usage?.completion_tokens);
  const reasoning = nonNegativeInt(usage?.completion_tokens_details?.reasoning_tokens);
  const total = nonNegativeInt(usage?.total_tokens);
  // Reasoning larger than the completion cannot be inside it: the server reported it apart.
  const withReasoning = reasoning > completion ? completion + reasoning : completion;
  return { promptTokens, completionTokens: Math.max(withReasoning, total - promptTokens) };
}

function nonNegativeInt(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
