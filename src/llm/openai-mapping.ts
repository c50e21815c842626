import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ChatMessage, ChatRequest, ToolCall } from "./types.js";

/** Defaults a request falls back to when it leaves a sampling parameter unset. */
export interface RequestDefaults {
  model: string;
  temperature: number;
  maxTokens: number;
}

/** Our request → the body of `POST /chat/completions`. */
export function toOpenAIRequest(
  request: ChatRequest,
  defaults: RequestDefaults,
): ChatCompletionCreateParamsNonStreaming {
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: defaults.model,
    messages: request.messages.map(toOpenAIMessage),
    temperature: request.temperature ?? defaults.temperature,
    max_tokens: request.maxTokens ?? defaults.maxTokens,
  };
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.jsonSchema) {
    body.response_format = {
      type: "json_schema",
      json_schema: {
        name: request.jsonSchema.name,
        schema: request.jsonSchema.schema,
        strict: false,
      },
    };
  }
  return body;
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
  /** `"empty"` when the server returned no choices at all. */
  finishReason: string;
  promptTokens: number;
  completionTokens: number;
  model: string | undefined;
}

/** A `chat.completion` body → our fields. */
export function fromOpenAIResponse(completion: ChatCompletion): MappedCompletion {
  const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
  const usage = completion?.usage;
  const base = {
    promptTokens: nonNegativeInt(usage?.prompt_tokens),
    completionTokens: nonNegativeInt(usage?.completion_tokens),
    model: typeof completion?.model === "string" ? completion.model : undefined,
  };
  if (!choice) return { content: null, toolCalls: [], finishReason: "empty", ...base };
  const message = choice.message;
  const toolCalls: ToolCall[] = [];
  for (const [index, call] of (message?.tool_calls ?? []).entries()) {
    if (call.type !== undefined && call.type !== "function") continue;
    if (!("function" in call) || !call.function) continue;
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
  return {
    content: typeof message?.content === "string" ? message.content : null,
    toolCalls,
    finishReason: choice.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    ...base,
  };
}

function nonNegativeInt(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
