import { completionProblem } from "../completion-check.js";
import type { Usage } from "../types.js";

/** The OpenAI APIs the gateway serves (and forwards) by their route under `/v1`. */
export const wireApis = {
  chat: "/chat/completions",
  responses: "/responses",
  embeddings: "/embeddings",
} as const;
/** One of the APIs the gateway forwards. */
export type WireApi = keyof typeof wireApis;

/** A JSON request or response body (an object; anything else is refused at the edge). */
export type WireBody = Record<string, unknown>;

/** The API a `/v1/…` path names, or undefined when the gateway does not forward it. */
export function apiOfPath(path: string): WireApi | undefined {
  const route = path.replace(/^\/v1/, "").replace(/\/+$/, "");
  return (Object.keys(wireApis) as WireApi[]).find((api) => wireApis[api] === route);
}

const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/**
 * The tokens a reply says it used: chat completions' `prompt_tokens`/`completion_tokens`, the
 * Responses API's `input_tokens`/`output_tokens`, embeddings' `prompt_tokens`. A reply without
 * `usage` counts nothing (what the endpoint bills is what it reports).
 */
export function usageOf(body: unknown): Usage {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage;
  if (!usage || typeof usage !== "object") return { promptTokens: 0, completionTokens: 0 };
  return {
    promptTokens: count(usage.prompt_tokens ?? usage.input_tokens),
    completionTokens: count(usage.completion_tokens ?? usage.output_tokens),
  };
}

/**
 * What is wrong with a 200 body of `api`, or undefined when it is a usable reply: chat bodies
 * are checked like the provider's (src/llm `completionProblem`); a Responses body needs an
 * `output` list and a status that is not `failed`; an embeddings body a `data` list.
 */
export function replyProblem(
  api: WireApi,
  body: unknown,
  context: { contentType?: string | null },
): string | undefined {
  if (api === "chat") return completionProblem(body, context)?.reason;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    const type = context.contentType ? `a ${context.contentType.split(";")[0]} body` : "no JSON";
    return `200 with ${type}, not a ${api} reply: ${JSON.stringify(String(body).slice(0, 200))}`;
  }
  const reply = body as { output?: unknown; status?: unknown; error?: unknown; data?: unknown };
  if (api === "embeddings")
    return Array.isArray(reply.data) ? undefined : "200 without 'data', not an embeddings reply";
  if (!Array.isArray(reply.output)) return "200 without 'output', not a Responses API reply";
  if (reply.status === "failed")
    return `a Responses API reply with status 'failed' (${JSON.stringify(reply.error ?? null).slice(0, 300)})`;
  return undefined;
}
