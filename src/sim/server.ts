import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletionEvents, responseEvents } from "../llm/gateway/event-stream.js";
import { agentReply } from "./agent-behaviour.js";
import { shortHash } from "./draw.js";
import {
  endpointFromQuirks,
  refuseAuth,
  refuseChat,
  routeOf,
  type SimEndpoint,
} from "./endpoint-behaviour.js";
import { errorBody, playFault, type SimFaults, send } from "./faults.js";
import { GroundTruthLog, groundTruthKey } from "./ground-truth-log.js";
import { latencyMs, wait } from "./latency.js";
import { contextRefusal, misbehave, type SimMisbehaviour } from "./misbehaviour.js";
import {
  type ChatBody,
  chatBodySchema,
  completionBody,
  estimateTokens,
  promptTokens,
  toSimRequest,
  type WireToolCall,
} from "./openai-wire.js";
import { evidenceBlock } from "./refiner/evidence.js";
import { inferSchemaName, refinerReply } from "./refiner/refiner-reply.js";
import { chatBodyOfResponses, responseBody } from "./responses-wire.js";
import { formatStructured } from "./structured-format.js";
import type { Quirk, World } from "./world-schema.js";

export type { SimFaults } from "./faults.js";

/** Options of startSimServer. */
export interface SimServerOptions {
  world: World;
  /** Model name used when a request names none (and listed by /v1/models). */
  model?: string;
  quirks?: Quirk[];
  /** Overrides the world's latency scale (0: no latency). */
  latencyScale?: number;
  /** Request-level ground truth (JSONL); written only when given. */
  groundTruthPath?: string;
  host?: string;
  port?: number;
  faults?: SimFaults;
  /** How the endpoint behaves like a real one that cannot do everything (added to the quirks'). */
  endpoint?: SimEndpoint;
  /** How the model misbehaves on one side (the agent's turns, the refiner's role replies). */
  misbehaviours?: SimMisbehaviour[];
}

/** A running sim endpoint. */
export interface SimServer {
  /** Base URL including `/v1` (Azure mode: the resource root, ending in `/openai`). */
  url: string;
  close(): Promise<void>;
  /** Chat-completion requests received so far (faults and refusals included). */
  requests(): number;
  /** Chat requests answered so far, by side: the agent's turns and the refiner's role calls. */
  requestsBySide(): { agent: number; refiner: number };
  /** Headers of every chat request received, in order (what the client really sent). */
  requestHeaders(): Record<string, string | string[] | undefined>[];
  /** Replaces the faults from the next request on (an outage that starts or ends). */
  setFaults(faults: SimFaults): void;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A chat-completions body, or a Responses API body read as one (`responses-wire.ts`). */
function parseChatBody(
  raw: string,
  api: "chat" | "responses",
): { body: ChatBody } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: "request body is not valid JSON" };
  }
  if (api === "responses") return chatBodyOfResponses(json);
  const parsed = chatBodySchema.safeParse(json);
  if (parsed.success) return { body: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `invalid request: ${issue?.path.join(".")}: ${issue?.message}` };
}

/** A streamed reply: the events of a finished reply, as OpenAI's servers send them. */
function sendEvents(response: ServerResponse, events: string[]): void {
  if (response.destroyed) return;
  response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
  for (const event of events) response.write(event);
  response.end();
}

/** Starts the simulated model behind an OpenAI-compatible HTTP endpoint on loopback. */
export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const { world } = options;
  let faults = options.faults ?? {};
  const quirks = new Set(options.quirks ?? []);
  const endpoint: SimEndpoint = { ...endpointFromQuirks([...quirks]), ...options.endpoint };
  const defaultModel = options.model ?? "sim-1";
  const log = new GroundTruthLog(options.groundTruthPath);
  const headersSeen: Record<string, string | string[] | undefined>[] = [];
  let count = 0;
  const bySide = { agent: 0, refiner: 0 };
  let structuredCount = 0;

  const answer = (body: ChatBody, raw: string, model: string, number: number) => {
    const request = toSimRequest(body, { model, nativeTools: !quirks.has("no-native-tools") });
    if (quirks.has("ignore-response-format")) request.schemaName = undefined;
    const role = request.schemaName ?? inferSchemaName(evidenceBlock(request));
    if (role) {
      let content = formatStructured(refinerReply(world, request, role), quirks);
      if (
        (faults.truncatedJsonEvery ?? 0) > 0 &&
        ++structuredCount % (faults.truncatedJsonEvery ?? 1) === 0
      )
        content = content.slice(0, Math.floor(content.length / 2));
      log.write({
        request: number,
        model,
        seed: request.seed,
        role,
        key: null,
        task: null,
        hits: [],
      });
      return { content, toolCalls: [] as WireToolCall[], side: "refiner" as const };
    }
    const reply = agentReply(world, request);
    const statement = reply.statement;
    log.write({
      request: number,
      model,
      seed: request.seed,
      role: "agent",
      key: statement ? groundTruthKey(statement, model, request.seed) : null,
      task: statement ? shortHash("statement", statement) : null,
      hits: reply.hits,
    });
    const toolCalls: WireToolCall[] = reply.toolCalls.map((call, index) => ({
      id: `call_${shortHash(raw, index)}`,
      type: "function",
      function: call,
    }));
    return { content: reply.content, toolCalls, side: "agent" as const };
  };
  const misbehaviourOf = (side: "agent" | "refiner") =>
    options.misbehaviours?.find((entry) => entry.side === side);

  const chat = async (
    raw: string,
    route: { api: "chat" | "responses"; deployment?: string },
    response: ServerResponse,
  ): Promise<void> => {
    const number = ++count;
    if (await playFault(faults, number, response)) return;
    const parsed = parseChatBody(raw, route.api);
    if ("error" in parsed)
      return send(response, 400, errorBody(parsed.error, "invalid_request_error"));
    const { body } = parsed;
    const model = route.deployment ?? (body.model || defaultModel);
    const refusal = refuseChat(endpoint, body, model);
    if (refusal) return send(response, refusal.status, refusal.body);
    const side = isRoleRequest(body, quirks) ? "refiner" : "agent";
    bySide[side] += 1;
    const tooLong = contextRefusal(body, misbehaviourOf(side));
    if (tooLong) return send(response, tooLong.status, tooLong.body);
    const { content, toolCalls } = answer(body, raw, model, number);
    const completionTokens = estimateTokens(
      (content ?? "") + toolCalls.map((call) => call.function.arguments).join(""),
    );
    await wait(latencyMs(world, completionTokens, options.latencyScale));
    const reply = {
      id: shortHash(raw),
      model,
      content,
      toolCalls,
      prompt: promptTokens(body),
      completionTokens,
    };
    if (route.api === "responses") {
      const full = responseBody(reply);
      return body.stream ? sendEvents(response, responseEvents(full)) : send(response, 200, full);
    }
    const completion = completionBody(reply);
    const misbehaviour = misbehaviourOf(side);
    const full = (misbehaviour ? misbehave(completion, misbehaviour.kind) : completion) as Record<
      string,
      unknown
    >;
    if (!body.stream) return send(response, 200, full);
    const includeUsage =
      (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    sendEvents(response, chatCompletionEvents(full, { includeUsage }));
  };

  const server = createServer((request, response) => {
    const route = routeOf(endpoint, request.method ?? "", request.url ?? "");
    if (route.kind === "none") return send(response, route.status, route.body);
    const refused = refuseAuth(endpoint, request.headers);
    if (route.kind === "models") {
      if (refused) return send(response, refused.status, refused.body);
      const ids = endpoint.models ?? [defaultModel];
      return send(response, 200, {
        object: "list",
        data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "ecdysis-sim" })),
      });
    }
    headersSeen.push({ ...request.headers });
    readBody(request)
      .then((raw) => {
        if (refused) {
          count += 1;
          return send(response, refused.status, refused.body);
        }
        return chat(
          raw,
          route.kind === "responses"
            ? { api: "responses" }
            : { api: "chat", deployment: route.deployment },
          response,
        );
      })
      .catch((error: unknown) => {
        if (!response.headersSent)
          send(response, 500, errorBody(`sim failure: ${String(error)}`, "server_error"));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${endpoint.azure ? "/openai" : "/v1"}`,
    requests: () => count,
    requestsBySide: () => ({ ...bySide }),
    requestHeaders: () => headersSeen.map((headers) => ({ ...headers })),
    setFaults: (next) => {
      faults = next;
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await log.flush();
    },
  };
}

/** Whether a request is a refiner role's (a structured reply, or an evidence block) or the agent's. */
function isRoleRequest(body: ChatBody, quirks: Set<Quirk>): boolean {
  const request = toSimRequest(body, { model: "", nativeTools: !quirks.has("no-native-tools") });
  return !!(request.schemaName ?? inferSchemaName(evidenceBlock(request)));
}
