import type { WireBody } from "./wire.js";

/**
 * A finished reply told as the server-sent events a streaming client expects. The gateway and
 * the sim answer `stream: true` this way: the whole reply is known first (so it can be retried,
 * cached and metered before a byte reaches the agent), then streamed in pieces the `openai`
 * SDK's stream readers accumulate back into the same reply.
 */

/** Text cut into pieces of at most `size` characters (at least one piece). */
export function pieces(text: string, size = 24): string[] {
  if (text === "") return [""];
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

interface WireToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}
interface WireChoice {
  index?: number;
  message?: {
    role?: string;
    content?: string | null;
    refusal?: string | null;
    tool_calls?: WireToolCall[];
  };
  finish_reason?: string | null;
}

/**
 * A `chat.completion` as `chat.completion.chunk` data lines, ending with `[DONE]`: per choice a
 * role chunk, the content (and a refusal) in pieces, each tool call's id and name then its
 * arguments, the finish reason; with `includeUsage` every chunk carries `usage: null` and a last
 * chunk with no choices carries the usage (OpenAI's `stream_options.include_usage`).
 */
export function chatCompletionEvents(
  completion: WireBody,
  options: { includeUsage: boolean },
): string[] {
  const base = {
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created ?? 0,
    model: completion.model,
    ...(completion.system_fingerprint ? { system_fingerprint: completion.system_fingerprint } : {}),
    ...(options.includeUsage ? { usage: null } : {}),
  };
  const chunks: unknown[] = [];
  const choices = (Array.isArray(completion.choices) ? completion.choices : []) as WireChoice[];
  for (const [position, choice] of choices.entries()) {
    const index = choice.index ?? position;
    const delta = (value: object, finish: string | null = null) =>
      chunks.push({
        ...base,
        choices: [{ index, delta: value, finish_reason: finish, logprobs: null }],
      });
    const message = choice.message ?? {};
    delta({ role: "assistant", content: "" });
    if (message.content) for (const piece of pieces(message.content)) delta({ content: piece });
    if (message.refusal) for (const piece of pieces(message.refusal)) delta({ refusal: piece });
    for (const [callIndex, call] of (message.tool_calls ?? []).entries()) {
      const name = call.function?.name ?? "";
      delta({
        tool_calls: [
          {
            index: callIndex,
            id: call.id,
            type: call.type ?? "function",
            function: { name, arguments: "" },
          },
        ],
      });
      for (const piece of pieces(call.function?.arguments ?? ""))
        delta({ tool_calls: [{ index: callIndex, function: { arguments: piece } }] });
    }
    delta({}, choice.finish_reason ?? "stop");
  }
  if (options.includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage ?? null });
  return [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), "data: [DONE]\n\n"];
}

interface OutputItem {
  type?: string;
  id?: string;
  content?: Array<{ type?: string; text?: string; refusal?: string }>;
  arguments?: string;
  name?: string;
}

/**
 * A Responses API `response` as its event stream: `response.created` and `response.in_progress`
 * (the response with no output yet), each output item added, its text parts or function-call
 * arguments streamed and done, the item done, then `response.completed` (or `.incomplete` /
 * `.failed`, after the response's status) with the whole response. Every event has a
 * `sequence_number`.
 */
export function responseEvents(response: WireBody): string[] {
  const events: Record<string, unknown>[] = [];
  const emit = (type: string, fields: object) => events.push({ type, ...fields });
  const pending = { ...response, status: "in_progress", output: [], usage: null };
  emit("response.created", { response: pending });
  emit("response.in_progress", { response: pending });
  const output = (Array.isArray(response.output) ? response.output : []) as OutputItem[];
  for (const [outputIndex, item] of output.entries()) itemEvents(item, outputIndex, emit);
  const status = String(response.status ?? "completed");
  const final = status === "incomplete" || status === "failed" ? status : "completed";
  emit(`response.${final}`, { response });
  return events.map(
    (event, sequence) =>
      `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence })}\n\n`,
  );
}

function itemEvents(
  item: OutputItem,
  outputIndex: number,
  emit: (type: string, fields: object) => void,
): void {
  const itemId = item.id ?? `item_${outputIndex}`;
  if (item.type === "message") {
    emit("response.output_item.added", {
      output_index: outputIndex,
      item: { ...item, status: "in_progress", content: [] },
    });
    for (const [contentIndex, part] of (item.content ?? []).entries()) {
      const at = { item_id: itemId, output_index: outputIndex, content_index: contentIndex };
      const kind = part.type === "refusal" ? "refusal" : "output_text";
      const text = (kind === "refusal" ? part.refusal : part.text) ?? "";
      const empty = kind === "refusal" ? { ...part, refusal: "" } : { ...part, text: "" };
      emit("response.content_part.added", { ...at, part: empty });
      for (const piece of pieces(text))
        emit(`response.${kind}.delta`, {
          ...at,
          delta: piece,
          ...(kind === "output_text" ? { logprobs: [] } : {}),
        });
      emit(`response.${kind}.done`, {
        ...at,
        ...(kind === "refusal" ? { refusal: text } : { text, logprobs: [] }),
      });
      emit("response.content_part.done", { ...at, part });
    }
  } else if (item.type === "function_call") {
    emit("response.output_item.added", {
      output_index: outputIndex,
      item: { ...item, arguments: "", status: "in_progress" },
    });
    const at = { item_id: itemId, output_index: outputIndex };
    for (const piece of pieces(item.arguments ?? ""))
      emit("response.function_call_arguments.delta", { ...at, delta: piece });
    emit("response.function_call_arguments.done", {
      ...at,
      name: item.name,
      arguments: item.arguments ?? "",
    });
  } else {
    emit("response.output_item.added", { output_index: outputIndex, item });
  }
  emit("response.output_item.done", { output_index: outputIndex, item });
}
