import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { agentReply } from "./agent-behaviour.js";
import { shortHash } from "./draw.js";
import { GroundTruthLog, groundTruthKey } from "./ground-truth-log.js";
import { latencyMs, wait } from "./latency.js";
import { chatBodySchema, estimateTokens, promptTokens, toSimRequest } from "./openai-wire.js";
import { evidenceBlock } from "./refiner/evidence.js";
import { inferSchemaName, refinerReply } from "./refiner/refiner-reply.js";
import { formatStructured } from "./structured-format.js";
import type { Quirk, World } from "./world-schema.js";

/** Fault injection for tests of the client's retry paths (counted over chat requests, 1-based). */
export interface SimFaults {
  /** Every n-th request answers 429 with `Retry-After: retryAfterSeconds`. */
  status429Every?: number;
  retryAfterSeconds?: number;
  /** Every n-th request answers 500. */
  status500Every?: number;
  /** Every n-th request waits `stallMs` before answering. */
  stallEvery?: number;
  stallMs?: number;
  /** Every n-th structured (role) reply is cut in half (malformed JSON). */
  truncatedJsonEvery?: number;
}

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
}

/** A running sim endpoint. */
export interface SimServer {
  /** Base URL including `/v1`. */
  url: string;
  close(): Promise<void>;
  /** Chat-completion requests received so far (faults included). */
  requests(): number;
}

const every = (n: number | undefined, count: number) => n !== undefined && n > 0 && count % n === 0;

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function errorBody(message: string, type: string) {
  return { error: { message, type, code: null, param: null } };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the simulated model behind an OpenAI-compatible HTTP endpoint on loopback. */
export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const { world, faults = {} } = options;
  const quirks = new Set(options.quirks ?? []);
  const defaultModel = options.model ?? "sim-1";
  const log = new GroundTruthLog(options.groundTruthPath);
  let count = 0;
  let structuredCount = 0;

  const chat = async (raw: string, response: ServerResponse): Promise<void> => {
    const number = ++count;
    if (every(faults.stallEvery, number)) await wait(faults.stallMs ?? 0);
    if (every(faults.status429Every, number)) {
      const retryAfter = String(faults.retryAfterSeconds ?? 0);
      return sendJson(response, 429, errorBody("rate limited (injected)", "rate_limit_error"), {
        "retry-after": retryAfter,
      });
    }
    if (every(faults.status500Every, number))
      return sendJson(response, 500, errorBody("server error (injected)", "server_error"));
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return sendJson(
        response,
        400,
        errorBody("request body is not valid JSON", "invalid_request_error"),
      );
    }
    const parsed = chatBodySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return sendJson(
        response,
        400,
        errorBody(
          `invalid request: ${issue?.path.join(".")}: ${issue?.message}`,
          "invalid_request_error",
        ),
      );
    }
    const body = parsed.data;
    if (body.stream)
      return sendJson(
        response,
        400,
        errorBody("streaming is not supported by the sim", "invalid_request_error"),
      );
    const request = toSimRequest(body, {
      defaultModel,
      nativeTools: !quirks.has("no-native-tools"),
    });
    if (quirks.has("ignore-response-format")) request.schemaName = undefined;
    const role = request.schemaName ?? inferSchemaName(evidenceBlock(request));
    let content: string | null;
    let toolCalls: {
      id: string;
      type: "function";
      function: { name: string; arguments: string };
    }[] = [];
    if (role) {
      content = formatStructured(refinerReply(world, request, role), quirks);
      if (every(faults.truncatedJsonEvery, ++structuredCount))
        content = content.slice(0, Math.floor(content.length / 2));
      log.write({
        request: number,
        model: request.model,
        seed: request.seed,
        role,
        key: null,
        task: null,
        hits: [],
      });
    } else {
      const reply = agentReply(world, request);
      content = reply.content;
      toolCalls = reply.toolCalls.map((call, index) => ({
        id: `call_${shortHash(raw, index)}`,
        type: "function",
        function: call,
      }));
      const statement = reply.statement;
      log.write({
        request: number,
        model: request.model,
        seed: request.seed,
        role: "agent",
        key: statement ? groundTruthKey(statement, request.model, request.seed) : null,
        task: statement ? shortHash("statement", statement) : null,
        hits: reply.hits,
      });
    }
    const completionTokens = estimateTokens(
      (content ?? "") + toolCalls.map((call) => call.function.arguments).join(""),
    );
    const prompt = promptTokens(body);
    await wait(latencyMs(world, completionTokens, options.latencyScale));
    sendJson(response, 200, {
      id: `chatcmpl-${shortHash(raw)}`,
      object: "chat.completion",
      created: 0,
      model: request.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: completionTokens,
        total_tokens: prompt + completionTokens,
      },
    });
  };

  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0].replace(/\/+$/, "");
    if (request.method === "GET" && path === "/v1/models") {
      return sendJson(response, 200, {
        object: "list",
        data: [{ id: defaultModel, object: "model", created: 0, owned_by: "ecdysis-sim" }],
      });
    }
    if (request.method === "POST" && path === "/v1/chat/completions") {
      readBody(request)
        .then((raw) => chat(raw, response))
        .catch((error: unknown) => {
          if (!response.headersSent)
            sendJson(response, 500, errorBody(`sim failure: ${String(error)}`, "server_error"));
        });
      return;
    }
    sendJson(response, 404, errorBody(`no route ${request.method} ${path}`, "not_found_error"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/v1`,
    requests: () => count,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await log.flush();
    },
  };
}
