import { createHash } from "node:crypto";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { preflightRequest } from "../../src/llm/preflight.js";
import { loadWorld, type SimServer, startSimServer } from "../../src/sim/index.js";

/** One model request as the endpoint saw it. */
export interface LedgerEntry {
  /** sha256 of the request body: the same call, whatever process sent it. */
  body: string;
  /** The status the endpoint answered with (0 while held or unanswered). */
  status: number;
  /** The reply was written to the end. */
  answered: boolean;
  /** The one-token endpoint check every run makes at its start (src/llm/preflight.ts). */
  preflight: boolean;
  /** Tokens the endpoint billed in a 200 (its `usage`). */
  promptTokens: number;
  completionTokens: number;
}

/** Transient faults, drawn per request from its body and how often that body was seen. */
export interface LedgerFaults {
  /** Share of requests answered 429 with `Retry-After: 1`. */
  rate429: number;
  /** Share of requests answered 503 (no Retry-After). */
  rate503: number;
}

/**
 * A real loopback endpoint in front of the sim: it records every model request and what it
 * billed, answers a share of them with transient 429s and 503s, and can hold requests
 * unanswered (a stalled endpoint) — an outside witness of what a run under test paid, which
 * may be killed at any point.
 */
export interface EndpointLedger {
  /** Base URL (with /v1) to configure as the endpoint. */
  readonly url: string;
  readonly entries: LedgerEntry[];
  /** Calls, prompt and completion tokens of the 200s answered, the endpoint check excluded. */
  billed(): { calls: number; promptTokens: number; completionTokens: number };
  /** Requests held unanswered right now. */
  held(): number;
  /** Model calls sent on to the sim and not yet answered (neither held nor done). */
  inFlight(): number;
  /**
   * From now on, once `answered` calls were answered, the requests `which` picks (default: all)
   * are held until `close`.
   */
  holdAfter(answered: number, which?: (body: unknown) => boolean): void;
  setFaults(faults: LedgerFaults | undefined): void;
  /** Forgets what was recorded (a new session starts counting). */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the sim (a bundled world name or a world file) behind a recording, faulty proxy. */
export async function startEndpointLedger(options: {
  world: string;
  latencyScale?: number;
  faults?: LedgerFaults;
}): Promise<EndpointLedger> {
  const sim: SimServer = await startSimServer({
    world: await loadWorld(options.world),
    model: "sim-1",
    latencyScale: options.latencyScale ?? 0,
  });
  const target = new URL(sim.url);
  let entries: LedgerEntry[] = [];
  let faults = options.faults;
  let holdFrom: number | undefined;
  let holdWhich: (body: unknown) => boolean = () => true;
  const seen = new Map<string, number>();
  const held: ServerResponse[] = [];
  const heldEntries = new Set<LedgerEntry>();
  const proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      if (!isModelCall(incoming)) return forward({ incoming, outgoing, body, target });
      const hash = createHash("sha256").update(body).digest("hex");
      const entry: LedgerEntry = {
        body: hash,
        status: 0,
        answered: false,
        preflight: isPreflight(body),
        promptTokens: 0,
        completionTokens: 0,
      };
      entries.push(entry);
      const answered = entries.filter((one) => one.answered && !one.preflight).length;
      if (
        holdFrom !== undefined &&
        answered >= holdFrom &&
        !entry.preflight &&
        holdWhich(parsed(body))
      ) {
        held.push(outgoing);
        heldEntries.add(entry);
        return;
      }
      const occurrence = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, occurrence);
      const fault =
        faults && !entry.preflight ? drawFault(faults, `${hash}:${occurrence}`) : undefined;
      if (fault) return answerFault(outgoing, entry, fault);
      forward({ incoming, outgoing, body, target, entry });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    get entries() {
      return entries;
    },
    billed: () => {
      const paid = entries.filter(
        (entry) => entry.answered && entry.status === 200 && !entry.preflight,
      );
      return {
        calls: paid.length,
        promptTokens: paid.reduce((sum, entry) => sum + entry.promptTokens, 0),
        completionTokens: paid.reduce((sum, entry) => sum + entry.completionTokens, 0),
      };
    },
    held: () => held.filter((response) => !response.destroyed).length,
    inFlight: () => entries.filter((entry) => !entry.answered && !heldEntries.has(entry)).length,
    holdAfter: (answered, which) => {
      holdFrom = answered;
      holdWhich = which ?? (() => true);
    },
    setFaults: (next) => {
      faults = next;
    },
    reset: () => {
      entries = [];
      seen.clear();
      holdFrom = undefined;
    },
    close: async () => {
      for (const response of held) response.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await sim.close();
    },
  };
}

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

function isModelCall(incoming: IncomingMessage): boolean {
  return incoming.method === "POST" && /\/(chat\/completions|responses)$/.test(incoming.url ?? "");
}

/** A uniform draw in [0, 1) from a key: the same request meets the same fault in every run. */
function drawFault(faults: LedgerFaults, key: string): 429 | 503 | undefined {
  const draw = createHash("sha256").update(key).digest().readUInt32BE(0) / 2 ** 32;
  if (draw < faults.rate429) return 429;
  if (draw < faults.rate429 + faults.rate503) return 503;
  return undefined;
}

function answerFault(outgoing: ServerResponse, entry: LedgerEntry, status: 429 | 503): void {
  const message =
    status === 429 ? "Rate limit reached, retry after 1s" : "The server is overloaded";
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (status === 429) headers["retry-after"] = "1";
  outgoing.writeHead(status, headers);
  outgoing.end(
    JSON.stringify({
      error: {
        message,
        type: status === 429 ? "requests" : "server_error",
        param: null,
        code: null,
      },
    }),
  );
  entry.status = status;
  entry.answered = true;
}

function forward(input: {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  body: Buffer;
  target: URL;
  entry?: LedgerEntry;
}): void {
  const { incoming, outgoing, entry } = input;
  const upstream = httpRequest(
    {
      host: input.target.hostname,
      port: input.target.port,
      method: incoming.method,
      path: incoming.url,
      headers: incoming.headers,
    },
    (reply) => {
      const parts: Buffer[] = [];
      reply.on("data", (chunk: Buffer) => parts.push(chunk));
      reply.on("end", () => {
        const text = Buffer.concat(parts);
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        outgoing.end(text, () => {
          if (!entry) return;
          entry.status = reply.statusCode ?? 0;
          entry.answered = true;
          const usage = billedUsage(text);
          entry.promptTokens = usage.promptTokens;
          entry.completionTokens = usage.completionTokens;
        });
      });
    },
  );
  upstream.on("error", () => outgoing.destroy());
  upstream.end(input.body);
}

function billedUsage(text: Buffer): { promptTokens: number; completionTokens: number } {
  try {
    const usage =
      (JSON.parse(text.toString("utf8")) as { usage?: Record<string, number> }).usage ?? {};
    return {
      promptTokens: usage.prompt_tokens ?? usage.input_tokens ?? 0,
      completionTokens: usage.completion_tokens ?? usage.output_tokens ?? 0,
    };
  } catch {
    return { promptTokens: 0, completionTokens: 0 };
  }
}

function isPreflight(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { messages?: { content?: unknown }[] };
    const content = preflightRequest.messages[0]?.content;
    return parsed.messages?.length === 1 && parsed.messages[0]?.content === content;
  } catch {
    return false;
  }
}
