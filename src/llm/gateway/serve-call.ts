import type { ServerResponse } from "node:http";
import { TransportError } from "../../errors/transport-error.js";
import type { Usage } from "../types.js";
import { chatCompletionEvents, responseEvents } from "./event-stream.js";
import { type ReplyCache, replyCacheKey } from "./reply-cache.js";
import type { ActiveLease } from "./rollout-leases.js";
import type { WireApi, WireBody } from "./wire.js";
import type { WireForwarder } from "./wire-forwarder.js";

/** What serving a call needs besides the request: the upstream, the cache, the scrub. */
export interface ServeContext {
  upstream: WireForwarder;
  /** Undefined: no cache (every call goes to the endpoint). */
  cache?: ReplyCache;
  /** Scrubs a reply before it is stored and sent (the run's secrets). */
  redact(body: unknown): unknown;
}

type Reply = { body: unknown; usage: Usage; costUsd: number };

/**
 * Serves one call of a rollout: the served model set, streaming fields taken off, the reply
 * taken from the cache or from the endpoint (then stored before the agent sees it, so a killed
 * run's answered calls replay), and sent as JSON or as the event stream the agent asked for.
 * The endpoint's refusal of the request goes back to the agent as it came; a call the endpoint
 * could not answer is recorded on the lease (the rollout is an infrastructure error) and
 * answered with the endpoint's status and the gateway's reason.
 */
export async function serveCall(input: {
  lease: ActiveLease;
  api: WireApi;
  body: WireBody;
  context: ServeContext;
  response: ServerResponse;
}): Promise<void> {
  const { lease, api, context, response } = input;
  const { stream, stream_options: streamOptions, ...rest } = input.body;
  const model = api === "embeddings" ? String(rest.model ?? "") : lease.model;
  if (api !== "embeddings" && typeof rest.model === "string" && rest.model !== lease.model)
    lease.askedFor(rest.model);
  const body: WireBody = { ...rest, model };
  const served = context.upstream.variant ? `${model} ${context.upstream.variant}` : model;
  const keyOf = (occurrence: number) =>
    replyCacheKey({ api, model: served, body, sampleIndex: lease.sampleIndex, occurrence });
  const base = keyOf(-1);
  const occurrence = lease.take(base);
  const done = lease.open();
  try {
    const reply = await replyFor({ lease, api, body, context, key: keyOf(occurrence) });
    if (!reply) {
      lease.release(base, occurrence);
      return;
    }
    if ("refused" in reply) {
      lease.release(base, occurrence);
      return sendRaw(response, reply.refused.status, reply.refused.body);
    }
    const includeUsage = (streamOptions as { include_usage?: unknown })?.include_usage === true;
    if (stream === true && api !== "embeddings")
      return sendEvents(response, api, reply.body as WireBody, includeUsage);
    return sendJson(response, 200, reply.body, {
      "x-ecdysis-cache": reply.cached ? "hit" : "miss",
    });
  } catch (error) {
    lease.release(base, occurrence);
    if (!(error instanceof TransportError)) throw error;
    lease.failed(error);
    sendJson(response, error.details.status ?? 502, {
      error: {
        message: `Ecdysis gateway: ${error.message}`,
        type: "gateway_error",
        code: "upstream_failed",
        param: null,
      },
    });
  } finally {
    done();
  }
}

/** The reply from the cache or the endpoint; undefined when the rollout ended meanwhile. */
async function replyFor(input: {
  lease: ActiveLease;
  api: WireApi;
  body: WireBody;
  context: ServeContext;
  key: string;
}): Promise<
  (Reply & { cached: boolean }) | { refused: { status: number; body: string } } | undefined
> {
  const { lease, api, body, context, key } = input;
  const hit = await context.cache?.get(key);
  if (hit) {
    lease.replayed();
    return { body: hit.body, usage: hit.usage, costUsd: hit.costUsd, cached: true };
  }
  let outcome: Awaited<ReturnType<WireForwarder["forward"]>>;
  try {
    outcome = await context.upstream.forward({ api, body, signal: lease.signal });
  } catch (error) {
    if (lease.signal.aborted) return undefined;
    throw error;
  }
  if (outcome.kind === "refused") {
    lease.refused(outcome.retries);
    return { refused: outcome };
  }
  // Embeddings are counted in tokens but not priced: the configured price is the chat model's.
  const costUsd = api === "embeddings" ? 0 : outcome.costUsd;
  const scrubbed = context.redact(outcome.body);
  lease.paid(outcome.usage, costUsd, outcome.retries);
  // A cache that cannot be written costs a later run a call, never this one its reply.
  await context.cache
    ?.put({
      version: 1,
      key,
      api,
      model: String(body.model),
      body: scrubbed,
      usage: outcome.usage,
      costUsd,
    })
    .catch(() => undefined);
  return { body: scrubbed, usage: outcome.usage, costUsd, cached: false };
}

/** A JSON reply (nothing when the agent is gone). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendRaw(response, status, JSON.stringify(body), headers);
}

function sendRaw(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(text);
}

function sendEvents(
  response: ServerResponse,
  api: WireApi,
  body: WireBody,
  includeUsage: boolean,
): void {
  if (response.destroyed || response.headersSent) return;
  const events =
    api === "responses" ? responseEvents(body) : chatCompletionEvents(body, { includeUsage });
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
  });
  for (const event of events) response.write(event);
  response.end();
}
