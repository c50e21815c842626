import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { preflightRequest } from "../../src/llm/preflight.js";
import { loadWorld, type SimServer, startSimServer } from "../../src/sim/index.js";

/** One chat request as the endpoint saw it. */
export interface LedgerEntry {
  /** sha256 of the request body: the same call, whatever process sent it. */
  body: string;
  /** The response was written to the end (the client could read it). */
  answered: boolean;
  /** The endpoint check every run makes once at its start (src/llm/preflight.ts). */
  preflight: boolean;
  /** The body's start, for failure messages. */
  excerpt: string;
}

/**
 * A real loopback HTTP proxy in front of a sim server that records every chat request and
 * whether its answer was delivered: what a billing endpoint would charge, seen from outside the
 * process under test (which may be killed with SIGKILL at any point).
 */
export interface CallLedger {
  /** Base URL (with /v1) to configure as the endpoint. */
  url: string;
  entries: LedgerEntry[];
  /** Forgets what was recorded (a new session starts counting). */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the sim (quickstart world) behind a recording proxy. */
export async function startCallLedger(options: { latencyScale: number }): Promise<CallLedger> {
  const sim: SimServer = await startSimServer({
    world: await loadWorld("quickstart"),
    model: "sim-1",
    latencyScale: options.latencyScale,
  });
  const target = new URL(sim.url);
  let entries: LedgerEntry[] = [];
  const proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const entry: LedgerEntry | undefined = incoming.url?.includes("/chat/completions")
        ? {
            body: createHash("sha256").update(body).digest("hex"),
            answered: false,
            preflight: isPreflight(body),
            excerpt: body.toString("utf8").slice(0, 400),
          }
        : undefined;
      if (entry) entries.push(entry);
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (reply) => {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(outgoing);
          outgoing.on("finish", () => {
            if (entry) entry.answered = true;
          });
        },
      );
      forward.on("error", () => outgoing.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    get entries() {
      return entries;
    },
    reset: () => {
      entries = [];
    },
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await sim.close();
    },
  };
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

/** Points a quickstart project's model at `url` (the sim through the ledger). */
export async function useEndpoint(dir: string, url: string): Promise<void> {
  const file = join(dir, "ecdysis.yml");
  const config = await readFile(file, "utf8");
  const replaced = config.replace(
    /model:\n {2}provider: sim.*\n {2}model: sim-1\n {2}world: quickstart.*\n/,
    `model:\n  provider: openai\n  baseUrl: ${url}\n  apiKeyEnv: LEDGER_KEY\n  model: sim-1\n`,
  );
  if (replaced === config) throw new Error(`useEndpoint: no sim model block in ${file}`);
  await writeFile(file, replaced);
}

/** The environment a project pointed at the ledger runs with. */
export const ledgerEnv = { LEDGER_KEY: "sk-ledger-test-key-000000000000" };
