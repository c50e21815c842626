import { z } from "zod";
import { type ChatBody, chatBodySchema, type WireToolCall } from "./openai-wire.js";

const textPartsSchema = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()),
]);

const inputItemSchema = z
  .object({
    type: z.string().optional(),
    role: z.enum(["system", "developer", "user", "assistant"]).optional(),
    content: textPartsSchema.optional(),
    call_id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.string().optional(),
    output: z.union([z.string(), z.array(z.unknown())]).optional(),
  })
  .passthrough();

/** The subset of a Responses API request body (`POST /v1/responses`) the sim reads. */
export const responsesBodySchema = z
  .object({
    model: z.string().default(""),
    instructions: z.string().nullish(),
    input: z.union([z.string(), z.array(inputItemSchema)]),
    tools: z
      .array(
        z
          .object({
            type: z.string(),
            name: z.string().optional(),
            description: z.string().nullish(),
          })
          .passthrough(),
      )
      .optional(),
    temperature: z.number().nullish(),
    max_output_tokens: z.number().int().nullish(),
    previous_response_id: z.string().nullish(),
    text: z
      .object({
        format: z
          .object({ type: z.string(), name: z.string().optional() })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();
/** A parsed Responses API body. */
export type ResponsesBody = z.infer<typeof responsesBodySchema>;

type ChatMessage = ChatBody["messages"][number];

function textOf(content: z.infer<typeof textPartsSchema> | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

/** The conversation of input items as chat messages: calls grouped on one assistant turn, outputs as tool messages. */
function messagesOf(body: ResponsesBody): ChatMessage[] {
  const messages: ChatMessage[] = body.instructions
    ? [{ role: "system", content: body.instructions }]
    : [];
  const items =
    typeof body.input === "string" ? [{ role: "user" as const, content: body.input }] : body.input;
  for (const item of items) {
    if (item.type === "function_call") {
      const call = {
        id: item.call_id ?? "",
        type: "function",
        function: { name: item.name ?? "", arguments: item.arguments ?? "" },
      };
      const last = messages.at(-1);
      if (last?.role === "assistant" && last.tool_calls) last.tool_calls.push(call);
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (item.type === "function_call_output") {
      const output =
        typeof item.output === "string" ? item.output : JSON.stringify(item.output ?? "");
      messages.push({ role: "tool", content: output, tool_call_id: item.call_id });
    } else if (item.role && (item.type === undefined || item.type === "message")) {
      messages.push({ role: item.role, content: textOf(item.content) });
    }
  }
  return messages;
}

/**
 * A Responses API request read as the chat body the sim answers: `instructions` as the system
 * message, input items as messages (`function_call` items as assistant tool calls, their
 * `function_call_output` as tool messages), function tools as chat tools, a `json_schema` text
 * format as `response_format`. The sim keeps no responses, so `previous_response_id` is refused
 * (send the whole conversation, as `store: false` clients do).
 */
export function chatBodyOfResponses(raw: unknown): { body: ChatBody } | { error: string } {
  const parsed = responsesBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `invalid request: ${issue?.path.join(".")}: ${issue?.message}` };
  }
  const body = parsed.data;
  if (body.previous_response_id)
    return {
      error:
        "previous_response_id is not supported: the sim stores no responses; send the whole conversation in 'input'",
    };
  const {
    input: _input,
    instructions: _instructions,
    tools,
    text,
    max_output_tokens,
    temperature,
    ...rest
  } = body;
  const format = text?.format;
  const chat = chatBodySchema.safeParse({
    ...rest,
    messages: messagesOf(body),
    ...(temperature === null || temperature === undefined ? {} : { temperature }),
    ...(max_output_tokens ? { max_tokens: max_output_tokens } : {}),
    tools: (tools ?? [])
      .filter((tool) => tool.type === "function" && tool.name)
      .map((tool) => ({
        type: "function",
        function: {
          name: tool.name,
          description: tool.description ?? "",
          parameters: tool.parameters ?? {},
        },
      })),
    ...(format?.type === "json_schema"
      ? { response_format: { type: "json_schema", json_schema: { name: format.name ?? "reply" } } }
      : {}),
  });
  if (!chat.success) return { error: `invalid request: ${chat.error.issues[0]?.message}` };
  return { body: chat.data };
}

/** A Responses API `response` with the sim's reply: a message item for the text, a `function_call` item per call. */
export function responseBody(reply: {
  id: string;
  model: string;
  content: string | null;
  toolCalls: WireToolCall[];
  prompt: number;
  completionTokens: number;
}): Record<string, unknown> {
  const message = reply.content
    ? [
        {
          type: "message",
          id: `msg_${reply.id}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: reply.content, annotations: [] }],
        },
      ]
    : [];
  const calls = reply.toolCalls.map((call, index) => ({
    type: "function_call",
    id: `fc_${reply.id}_${index}`,
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
    status: "completed",
  }));
  return {
    id: `resp_${reply.id}`,
    object: "response",
    created_at: 0,
    status: "completed",
    model: reply.model,
    output: [...message, ...calls],
    error: null,
    incomplete_details: null,
    usage: {
      input_tokens: reply.prompt,
      output_tokens: reply.completionTokens,
      total_tokens: reply.prompt + reply.completionTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}
