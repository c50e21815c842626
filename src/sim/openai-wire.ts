import { z } from "zod";
import type { SimMessage, SimRequest } from "./sim-request.js";

const contentSchema = z
  .union([
    z.string(),
    z.null(),
    z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()),
  ])
  .optional();

const messageSchema = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool"]),
    content: contentSchema,
    tool_calls: z
      .array(
        z
          .object({
            id: z.string(),
            function: z.object({ name: z.string(), arguments: z.string() }).passthrough(),
          })
          .passthrough(),
      )
      .optional(),
    tool_call_id: z.string().optional(),
  })
  .passthrough();

/** The subset of an OpenAI chat-completions request body the sim accepts. */
export const chatBodySchema = z
  .object({
    model: z.string().default(""),
    messages: z.array(messageSchema).min(1),
    tools: z
      .array(
        z
          .object({ type: z.string(), function: z.object({ name: z.string() }).passthrough() })
          .passthrough(),
      )
      .optional(),
    seed: z.number().int().optional(),
    temperature: z.number().optional(),
    max_tokens: z.number().int().optional(),
    max_completion_tokens: z.number().int().optional(),
    reasoning_effort: z.string().optional(),
    response_format: z
      .object({
        type: z.string(),
        json_schema: z.object({ name: z.string() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();
/** A parsed chat-completions body. */
export type ChatBody = z.infer<typeof chatBodySchema>;

export function contentText(content: z.infer<typeof contentSchema>): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((part) => part.text ?? "").join("");
}

/** Normalises a wire body into what the sim reads (`model`: the one being served). */
export function toSimRequest(
  body: ChatBody,
  options: { model: string; nativeTools: boolean },
): SimRequest {
  const messages: SimMessage[] = body.messages.map((message) => ({
    role: message.role,
    content: contentText(message.content),
    toolCalls: message.tool_calls?.map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    })),
    toolCallId: message.tool_call_id,
  }));
  return {
    model: options.model,
    messages,
    tools: options.nativeTools ? (body.tools ?? []).map((tool) => tool.function.name) : [],
    seed: body.seed ?? 0,
    temperature: body.temperature ?? 1,
    schemaName:
      body.response_format?.type === "json_schema"
        ? body.response_format.json_schema?.name
        : undefined,
  };
}

/** Estimated tokens of a text (chars / 4, at least 1). */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Prompt tokens of a request body (message contents, tool calls, tool specs). */
export function promptTokens(body: ChatBody): number {
  const parts = body.messages.map(
    (message) => contentText(message.content) + JSON.stringify(message.tool_calls ?? ""),
  );
  return estimateTokens(parts.join("") + JSON.stringify(body.tools ?? ""));
}

/** A function tool call as the wire carries it. */
export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A `chat.completion` body as OpenAI sends it. */
export function completionBody(reply: {
  id: string;
  model: string;
  content: string | null;
  toolCalls: WireToolCall[];
  prompt: number;
  completionTokens: number;
}): unknown {
  return {
    id: `chatcmpl-${reply.id}`,
    object: "chat.completion",
    created: 0,
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.content,
          ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
        },
        finish_reason: reply.toolCalls.length > 0 ? "tool_calls" : "stop",
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: reply.prompt,
      completion_tokens: reply.completionTokens,
      total_tokens: reply.prompt + reply.completionTokens,
    },
  };
}
