import { z } from "zod";

/** A chat message in OpenAI's shape (the subset Ecdysis uses). */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls?: ToolCall[] }
  | { role: "tool"; content: string; toolCallId: string };

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON arguments as the model wrote them (may be malformed). */
  arguments: string;
}

/** A function tool offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  /** Sampling seed: sample k of a task sends a distinct seed, so re-samples differ. */
  seed?: number;
  /** Ask for JSON matching this schema (`response_format: json_schema`). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** Label for accounting ("agent", "diagnostician", …). */
  purpose?: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResponse {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: Usage;
  latencyMs: number;
  costUsd: number;
  model: string;
  /** Retries spent on transport errors before this response. */
  retries: number;
  /** True when the response was replayed from a call cache (no request was made). */
  cached?: boolean;
  /**
   * The model's reasoning when the server returned it apart from the content (`reasoning_content`
   * of vLLM's reasoning parsers and DeepSeek, `reasoning` of OpenRouter and Ollama), cut short.
   * Never part of the answer.
   */
  reasoning?: string;
  /** The content is a refusal the server marked as one (`message.refusal`). */
  refused?: boolean;
}

/** One chat method: the only thing the rest of Ecdysis needs from a model. */
export interface ChatProvider {
  readonly model: string;
  /**
   * The OpenAI-compatible base URL behind this provider, when there is one (never the key).
   * A command harness is told it, so the user's own agent can reach the same model.
   */
  readonly baseUrl?: string;
  /**
   * What besides `model` shapes the replies (reasoning effort, extra body fields, fixed wire
   * settings; src/llm `replyVariant`): part of the call cache's key. Undefined when nothing does.
   */
  readonly variant?: string;
  chat(request: ChatRequest, options?: { signal?: AbortSignal }): Promise<ChatResponse>;
}

/** Running totals kept by a provider's accounting. */
export const usageTotalsSchema = z.object({
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  costUsd: z.number(),
  retries: z.number().int(),
  byPurpose: z.record(
    z.string(),
    z.object({
      calls: z.number().int(),
      promptTokens: z.number().int(),
      completionTokens: z.number().int(),
      costUsd: z.number(),
    }),
  ),
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;
