import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply of the fake server. */
export type FakeReply =
  | {
      kind: "completion";
      content?: string | null;
      toolCalls?: Array<{ id?: string; name: string; arguments: string }>;
      finishReason?: string;
      usage?: { promptTokens: number; completionTokens: number };
      model?: string;
      /** Reply with `choices: []`, as some servers do on internal errors. */
      noChoices?: boolean;
      /** Leave the `choices` field out altogether. */
      omitChoices?: boolean;
      /** A `refusal` on the message (OpenAI's structured-output refusals carry `content: null`). */
      refusal?: string;
      /** Keep the request open until the test calls `releaseOne()`. */
      hold?: boolean;
    }
  | {
      kind: "error";
      status: number;
      /** OpenAI-style `{error: {…}}` body; `body` wins when both are given. */
      error?: { message: string; type?: string; code?: string };
      body?: string;
      headers?: Record<string, string>;
    }
  /** Never answer (or, with `afterHeaders`, send 200 and half a body, then stop); the client's timeout must fire. */
  | { kind: "stall"; afterHeaders?: boolean }
  /** Any body under any status and content type (an HTML login page answered with 200, …). */
  | { kind: "body"; status?: number; contentType?: string; body: string }
  /** A dropped connection: `before-headers` resets the socket before any byte (ECONNRESET);
   * `mid-body` sends 200, headers and part of the body, then destroys the socket (undici's
   * `TypeError: terminated`). */
  | { kind: "drop"; stage: "before-headers" | "mid-body" };

/** A request as the server received it. */
export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A loopback OpenAI-compatible double: scripted replies, recorded requests, loud on surprises. */
export interface FakeOpenAIServer {
  /** Base URL including `/v1`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests that had no scripted reply (answered with 418). */
  readonly unexpected: RecordedRequest[];
  /** Requests currently open (held, stalled, or being answered). */
  inFlight(): number;
  /** The most requests that were ever open at once. */
  maxInFlight(): number;
  /** Held requests waiting for `releaseOne()`. */
  held(): number;
  /** Answers the oldest held request; false when none is held. */
  releaseOne(): boolean;
  /** Resolves once `predicate` holds (checked on every server state change). */
  waitFor(predicate: () => boolean): Promise<void>;
  /** Throws when a request was unexpected or scripted replies were left unused. */
  assertDone(): void;
  close(): Promise<void>;
}

/** Options of {@link startFakeOpenAIServer}. */
export interface FakeServerOptions {
  /** Replies in order, or a function of the request and its index (undefined = unexpected). */
  replies: FakeReply[] | ((request: RecordedRequest) => FakeReply | undefined);
  /** Script every POST, whatever its path (`/v1/responses`, `/v1/embeddings`), not only chat. */
  anyPath?: boolean;
}

/** What the server has seen and holds, shared by its request handler and the test's methods. */
interface Traffic {
  requests: RecordedRequest[];
  unexpected: RecordedRequest[];
  /** The answers of held requests, oldest first. */
  held: Array<() => void>;
  open: number;
  peak: number;
  /** Emits "change" on every state change (for `waitFor`). */
  changes: EventEmitter;
}

/** Starts the fake on 127.0.0.1 with an OS-assigned port. */
export async function startFakeOpenAIServer(options: FakeServerOptions): Promise<FakeOpenAIServer> {
  const traffic: Traffic = {
    requests: [],
    unexpected: [],
    held: [],
    open: 0,
    peak: 0,
    changes: new EventEmitter(),
  };
  const scripted = Array.isArray(options.replies) ? options.replies : undefined;
  const server = createServer((req, res) => handleRequest({ ...options, traffic }, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: traffic.requests,
    unexpected: traffic.unexpected,
    inFlight: () => traffic.open,
    maxInFlight: () => traffic.peak,
    held: () => traffic.held.length,
    releaseOne: () => {
      const next = traffic.held.shift();
      next?.();
      return next !== undefined;
    },
    waitFor: (predicate) =>
      new Promise<void>((resolve) => {
        if (predicate()) return resolve();
        const check = () => {
          if (!predicate()) return;
          traffic.changes.off("change", check);
          resolve();
        };
        traffic.changes.on("change", check);
      }),
    assertDone: () => assertScriptDone(traffic, scripted),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Records one request and answers it with its scripted reply (418 when it has none). */
function handleRequest(
  server: { traffic: Traffic } & FakeServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const { traffic } = server;
  const changed = () => traffic.changes.emit("change");
  traffic.open += 1;
  traffic.peak = Math.max(traffic.peak, traffic.open);
  res.on("close", () => {
    traffic.open -= 1;
    changed();
  });
  void readBody(req).then((text) => {
    const recorded: RecordedRequest = {
      index: traffic.requests.length,
      method: req.method ?? "",
      path: req.url ?? "",
      headers: { ...req.headers },
      body: safeParse(text),
    };
    traffic.requests.push(recorded);
    const isChat =
      recorded.method === "POST" &&
      (server.anyPath || recorded.path.replace(/\?.*$/, "") === "/v1/chat/completions");
    const reply = !isChat
      ? undefined
      : Array.isArray(server.replies)
        ? server.replies[recorded.index]
        : server.replies(recorded);
    if (!reply) {
      traffic.unexpected.push(recorded);
      sendJson(res, 418, {
        error: {
          message: `fake-openai-server: unexpected call #${recorded.index} to ${recorded.method} ${recorded.path}`,
          type: "unexpected_call",
        },
      });
    } else {
      const hold = (answer: () => void) => traffic.held.push(answer);
      writeReply({ req, res, reply, index: recorded.index, hold });
    }
    changed();
  });
}

/** Writes a scripted reply, or stalls, drops or holds the response as the reply says. */
function writeReply(options: {
  req: IncomingMessage;
  res: ServerResponse;
  reply: FakeReply;
  index: number;
  hold: (answer: () => void) => void;
}): void {
  const { req, res, reply } = options;
  if (reply.kind === "stall") {
    // Leave the response open; the client's timeout closes the socket.
    if (reply.afterHeaders) {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"chatcmpl-stalled","choices":[');
    }
  } else if (reply.kind === "body") {
    res
      .writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" })
      .end(reply.body);
  } else if (reply.kind === "drop") {
    if (reply.stage === "before-headers") req.socket.destroy();
    else {
      // A declared length the body never reaches, flushed, then the socket goes away.
      res.writeHead(200, { "content-type": "application/json", "content-length": "4096" });
      res.write('{"id":"chatcmpl-dropped","object":"chat.completion","choices":[{"index":0,');
      setImmediate(() => req.socket.destroy());
    }
  } else if (reply.kind === "error") {
    const headers = { "content-type": "application/json", ...reply.headers };
    res
      .writeHead(reply.status, headers)
      .end(reply.body ?? JSON.stringify({ error: reply.error ?? null }));
  } else if (reply.hold) {
    options.hold(() => sendJson(res, 200, completionBody(reply, options.index)));
  } else {
    sendJson(res, 200, completionBody(reply, options.index));
  }
}

function assertScriptDone(traffic: Traffic, scripted: FakeReply[] | undefined): void {
  const { requests, unexpected } = traffic;
  if (unexpected.length > 0) {
    throw new Error(
      `fake-openai-server: ${unexpected.length} unexpected request(s), first #${unexpected[0].index} ${unexpected[0].path}`,
    );
  }
  if (scripted && requests.length < scripted.length) {
    throw new Error(
      `fake-openai-server: ${scripted.length - requests.length} scripted reply(ies) never requested`,
    );
  }
}

function completionBody(reply: Extract<FakeReply, { kind: "completion" }>, index: number): unknown {
  const toolCalls = reply.toolCalls?.map((call, position) => ({
    id: call.id ?? `call_${index}_${position}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const usage = reply.usage ?? { promptTokens: 10, completionTokens: 5 };
  return {
    id: `chatcmpl-fake-${index}`,
    object: "chat.completion",
    created: 0,
    model: reply.model ?? "fake-model",
    ...(reply.omitChoices ? {} : { choices: choicesOf(reply, toolCalls) }),
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    },
  };
}

function choicesOf(
  reply: Extract<FakeReply, { kind: "completion" }>,
  toolCalls: unknown[] | undefined,
): unknown[] {
  return reply.noChoices
    ? []
    : [
        {
          index: 0,
          message: {
            role: "assistant",
            content: reply.content ?? null,
            ...(reply.refusal ? { refusal: reply.refusal } : {}),
            ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: reply.finishReason ?? (toolCalls?.length ? "tool_calls" : "stop"),
          logprobs: null,
        },
      ];
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
