import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { endpointFromQuirks, refuseAuth, routeOf, type SimEndpoint } from "./endpoint-behaviour.js";
import { errorBody, type SimFaults, send } from "./faults.js";
import { GroundTruthLog } from "./ground-truth-log.js";
import type { SimMisbehaviour } from "./misbehaviour.js";
import { SimChat } from "./sim-chat.js";
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

/** The body of `GET /models`: the endpoint's model ids. */
function modelList(ids: string[]): object {
  return {
    object: "list",
    data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "ecdysis-sim" })),
  };
}

/** Listens on the options' host and port (default: loopback, any free port). */
async function listen(server: Server, options: SimServerOptions): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  return server.address() as AddressInfo;
}

/** Starts the simulated model behind an OpenAI-compatible HTTP endpoint on loopback. */
export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const quirks = new Set(options.quirks ?? []);
  const endpoint: SimEndpoint = { ...endpointFromQuirks([...quirks]), ...options.endpoint };
  const defaultModel = options.model ?? "sim-1";
  const log = new GroundTruthLog(options.groundTruthPath);
  const sim = new SimChat({ options, quirks, endpoint, defaultModel, log });
  const headersSeen: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((request, response) => {
    const route = routeOf(endpoint, request.method ?? "", request.url ?? "");
    if (route.kind === "none") return send(response, route.status, route.body);
    const refused = refuseAuth(endpoint, request.headers);
    if (route.kind === "models") {
      if (refused) return send(response, refused.status, refused.body);
      return send(response, 200, modelList(endpoint.models ?? [defaultModel]));
    }
    headersSeen.push({ ...request.headers });
    readBody(request)
      .then((raw) => {
        if (refused) {
          sim.count += 1;
          return send(response, refused.status, refused.body);
        }
        return sim.chat(
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
  const address = await listen(server, options);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${endpoint.azure ? "/openai" : "/v1"}`,
    requests: () => sim.count,
    requestsBySide: () => ({ ...sim.bySide }),
    requestHeaders: () => headersSeen.map((headers) => ({ ...headers })),
    setFaults: (next) => {
      sim.faults = next;
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
