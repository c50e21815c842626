import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReplyCache } from "./reply-cache.js";
import { type ActiveLease, type RolloutLease, RolloutLeases } from "./rollout-leases.js";
import { type ServeContext, sendJson, serveCall } from "./serve-call.js";
import { apiOfPath, type WireBody } from "./wire.js";
import type { WireForwarder } from "./wire-forwarder.js";

/** Options of {@link startModelGateway}. */
export interface ModelGatewayOptions {
  /** The models served (the agent's, the probe's), each forwarding to its endpoint with its key. */
  upstreams: WireForwarder[];
  /** Where replies are kept (`<cacheDir>/gateway`); undefined: no cache. */
  cacheDir?: string;
  /** Scrubs every reply before it is stored or sent (the run's secrets); default: unchanged. */
  redact?: (body: unknown) => unknown;
  /** Where the private socket folder is made; default the system's temporary folder. */
  socketParent?: string;
}

/**
 * A running gateway: one HTTP server on a loopback TCP port and on a unix socket in a folder
 * only this user may enter (0700). Agents outside a sandbox use the port; a sandbox without a
 * network bridges its own `127.0.0.1:<port>` to the socket, so `OPENAI_BASE_URL` is the same
 * inside and out.
 */
export interface ModelGateway {
  /** `http://127.0.0.1:<port>/v1`: the agent's `OPENAI_BASE_URL`. */
  readonly baseUrl: string;
  /** The loopback TCP port (on 127.0.0.1). */
  readonly port: number;
  /** The unix socket serving the same routes; its folder is private (0700). */
  readonly socketPath: string;
  /** A lease for one rollout: a fresh token bound to `model` and the sample. */
  openRollout(input: { model: string; sampleIndex: number }): RolloutLease;
  /** Stops both listeners, ends every lease, removes the socket folder. */
  close(): Promise<void>;
}

const maxBodyBytes = 32 * 1024 * 1024;

/**
 * Starts the model gateway of a run with a command harness: an OpenAI-compatible server on
 * loopback holding the real keys (inside each upstream), so the agent gets a per-rollout token
 * instead, and every call it makes gets the LLM layer's limits, retries, capability steps,
 * cache, metering and infrastructure-error handling (see serve-call.ts, wire-forwarder.ts).
 */
export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const leases = new RolloutLeases();
  const cache = options.cacheDir ? new ReplyCache(options.cacheDir) : undefined;
  const redact = options.redact ?? ((body: unknown) => body);
  const serves = new Map<string, ServeContext>();
  for (const upstream of options.upstreams)
    if (!serves.has(upstream.model)) serves.set(upstream.model, { upstream, cache, redact });
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response, leases, serves).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else
        sendJson(response, 500, gatewayError(`gateway failure: ${String(error)}`, "gateway_error"));
    });
  };
  const tcp = createServer(onRequest);
  const unix = createServer(onRequest);
  const folder = await mkdtemp(join(options.socketParent ?? tmpdir(), "ecdysis-gateway-"));
  await chmod(folder, 0o700);
  const socketPath = join(folder, "gateway.sock");
  try {
    await listen(tcp, (done) => tcp.listen(0, "127.0.0.1", done));
    await listen(unix, (done) => unix.listen(socketPath, done));
  } catch (error) {
    await Promise.all([stop(tcp), stop(unix)]);
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const port = (tcp.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    socketPath,
    openRollout(input) {
      if (!serves.has(input.model))
        throw new Error(
          `the model gateway does not serve model '${input.model}' (it serves ${[...serves.keys()].join(", ")})`,
        );
      return leases.open(input);
    },
    async close() {
      leases.closeAll();
      await Promise.all([stop(tcp), stop(unix)]);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  leases: RolloutLeases,
  serves: Map<string, ServeContext>,
): Promise<void> {
  const method = request.method ?? "GET";
  const path = new URL(request.url ?? "/", "http://gateway").pathname.replace(/\/+$/, "");
  const lease = leases.authorize(request.headers);
  if (!lease) {
    request.resume();
    const message =
      "no valid rollout token: send the value of the key variable Ecdysis set (as Authorization: Bearer …); a token ends with its rollout";
    return sendJson(
      response,
      401,
      gatewayError(message, "invalid_request_error", "invalid_api_key"),
    );
  }
  if (method === "GET" && /^(\/v1)?\/models(\/.*)?$/.test(path))
    return sendModels(response, lease, path);
  const api = method === "POST" ? apiOfPath(path) : undefined;
  if (!api) {
    request.resume();
    const message = `${method} ${path} is not forwarded by the Ecdysis gateway; it serves POST /v1/chat/completions, /v1/responses and /v1/embeddings, and GET /v1/models`;
    return sendJson(response, 404, gatewayError(message, "invalid_request_error", "unknown_route"));
  }
  const body = await readJsonObject(request);
  if (typeof body === "string")
    return sendJson(
      response,
      body.startsWith("request body is larger") ? 413 : 400,
      gatewayError(body, "invalid_request_error"),
    );
  const context = serves.get(lease.model) as ServeContext;
  await serveCall({ lease, api, body, context, response });
}

function sendModels(response: ServerResponse, lease: ActiveLease, path: string): void {
  const model = { id: lease.model, object: "model", created: 0, owned_by: "ecdysis-gateway" };
  const named = /\/models\/(.+)$/.exec(path)?.[1];
  if (named === undefined) sendJson(response, 200, { object: "list", data: [model] });
  else if (decodeURIComponent(named) === lease.model) sendJson(response, 200, model);
  else
    sendJson(
      response,
      404,
      gatewayError(
        `model '${decodeURIComponent(named)}' is not served here; this rollout is served '${lease.model}'`,
        "invalid_request_error",
        "model_not_found",
      ),
    );
}

/** The body as a JSON object, or why it is not one. */
async function readJsonObject(request: IncomingMessage): Promise<WireBody | string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > maxBodyBytes) return `request body is larger than ${maxBodyBytes} bytes`;
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as WireBody;
    return "request body is not a JSON object";
  } catch {
    return "request body is not valid JSON";
  }
}

function gatewayError(message: string, type: string, code: string | null = null) {
  return { error: { message: `Ecdysis gateway: ${message}`, type, param: null, code } };
}

function listen(server: Server, start: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    start(() => {
      server.off("error", reject);
      resolve();
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
