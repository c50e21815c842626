import { z } from "zod";
import { type ChatBody, contentText } from "./openai-wire.js";

/**
 * How real models and servers answer when they do not do what was asked — each as the wire
 * shows it (vLLM's reasoning parser, chat templates without a tool parser, OpenAI's structured
 * refusals, gateways' usage fields) — so the client is tested against them, not against a tidy
 * double. Applied to one side: the agent's turns or the refiner's role replies.
 */
export const misbehaviourKinds = [
  /** `content: ""`, nothing else. */
  "empty",
  /** The model declines in words: "I'm sorry, but I can't help with that." */
  "refusal-text",
  /** OpenAI's structured refusal: `content: null`, `refusal: "…"`. */
  "refusal-field",
  /** JSON written with single quotes (a Python dict), which no JSON parser reads. */
  "single-quoted-json",
  /** The reply stops halfway, `finish_reason: "length"`, on every try. */
  "cut-at-limit",
  /** vLLM's reasoning parser when the model never closes its thinking: all in `reasoning_content`, `content: ""`. */
  "reasoning-only",
  /** The same with `content: null`. */
  "reasoning-null",
  /** `<think>…</think>` with a draft answer in it, before the real reply. */
  "think-tags",
  /** Tool calls written as Hermes/Qwen `<tool_call>{…}</tool_call>` text (no tool parser on the server). */
  "hermes-tools",
  /** Tool calls written as Llama `<|python_tag|>{"name":…,"parameters":…}`. */
  "llama-tools",
  /** Tool calls written as Mistral `[TOOL_CALLS][{…}]`. */
  "mistral-tools",
  /** Hidden reasoning tokens reported only in `total_tokens` (some gateways). */
  "usage-total-only",
  /** 400 "maximum context length" (vLLM's words) to a prompt longer than `maxPromptChars`. */
  "context-limit",
] as const;
/** One misbehaviour. */
export type MisbehaviourKind = (typeof misbehaviourKinds)[number];

/** A misbehaviour and the side it applies to. */
export const simMisbehaviourSchema = z.object({
  side: z.enum(["agent", "refiner"]),
  kind: z.enum(misbehaviourKinds),
  /** `context-limit`: the longest prompt (characters of its messages) the server takes. */
  maxPromptChars: z.number().int().positive().optional(),
});
export type SimMisbehaviour = z.infer<typeof simMisbehaviourSchema>;

/** Hidden reasoning tokens a `usage-total-only` reply has on top of what it reports. */
export const hiddenReasoningTokens = 200;

interface WireMessage {
  content: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
  [field: string]: unknown;
}
interface WireCompletion {
  choices: { message: WireMessage; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** The 400 a server with a short context answers, or undefined when the prompt fits. */
export function contextRefusal(body: ChatBody, misbehaviour: SimMisbehaviour | undefined) {
  if (misbehaviour?.kind !== "context-limit") return undefined;
  const chars = body.messages.reduce(
    (sum, message) => sum + contentText(message.content).length,
    0,
  );
  const limit = misbehaviour.maxPromptChars ?? 4000;
  if (chars <= limit) return undefined;
  const tokens = (chars: number) => Math.ceil(chars / 4);
  return {
    status: 400,
    body: {
      object: "error",
      message: `This model's maximum context length is ${tokens(limit)} tokens. However, you requested ${tokens(chars)} tokens in the messages, Please reduce the length of the messages.`,
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  };
}

/** A completion body (OpenAI's shape, as the sim writes it) as the misbehaving server sends it. */
export function misbehave(completion: unknown, kind: MisbehaviourKind): unknown {
  const body = structuredClone(completion) as WireCompletion;
  const choice = body.choices[0];
  const text = choice.message.content ?? "";
  const calls = choice.message.tool_calls ?? [];
  const replace = (content: string | null, extra: Record<string, unknown> = {}) => {
    choice.message = { role: "assistant", content, ...extra };
    choice.finish_reason = "stop";
  };
  if (kind === "empty") replace("");
  else if (kind === "refusal-text") replace("I'm sorry, but I can't help with that.");
  else if (kind === "refusal-field")
    replace(null, { refusal: "I'm sorry, but I can't assist with that request." });
  else if (kind === "single-quoted-json") choice.message.content = text.replaceAll('"', "'");
  else if (kind === "cut-at-limit") {
    replace(text.slice(0, Math.floor(text.length / 2)));
    choice.finish_reason = "length";
  } else if (kind === "reasoning-only" || kind === "reasoning-null")
    replace(kind === "reasoning-only" ? "" : null, {
      reasoning_content: `Okay, let me think. ${text}`,
    });
  else if (kind === "think-tags")
    choice.message.content = `<think>\nA first guess.\nAnswer: 0\n</think>\n${text}`;
  else if (kind === "usage-total-only") body.usage.total_tokens += hiddenReasoningTokens;
  else if (
    (kind === "hermes-tools" || kind === "llama-tools" || kind === "mistral-tools") &&
    calls.length > 0
  )
    replace(writtenCalls(text, calls, kind));
  return body;
}

function writtenCalls(
  text: string,
  calls: { function: { name: string; arguments: string } }[],
  kind: "hermes-tools" | "llama-tools" | "mistral-tools",
): string {
  const parsed = calls.map((call) => ({
    name: call.function.name,
    args: parseArguments(call.function.arguments),
  }));
  const lead = text ? `${text}\n` : "";
  if (kind === "hermes-tools")
    return `${lead}${parsed.map((call) => `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.args })}\n</tool_call>`).join("\n")}`;
  if (kind === "llama-tools")
    return `${lead}<|python_tag|>${parsed.map((call) => JSON.stringify({ name: call.name, parameters: call.args })).join("; ")}<|eom_id|>`;
  return `${lead}[TOOL_CALLS]${JSON.stringify(parsed.map((call) => ({ name: call.name, arguments: call.args })))}`;
}

/** The arguments as a value; a malformed string stays a string (as a template would write it). */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || "{}");
  } catch {
    return text;
  }
}
