import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** What a hostile agent says it reached (counts only: never a secret). */
export interface AttackReport {
  environ: number;
  taskFiles: number;
  jobFiles: number;
  outside: number;
  port: number;
  credentials: number;
}

/** A loopback OpenAI-compatible endpoint in front of the simulated model; see `startModelProxy`. */
export interface ModelProxy {
  /** Base URL (`http://127.0.0.1:<port>/v1`). */
  url: string;
  /** The attack reports the agents' calls carried, in arrival order. */
  reports: AttackReport[];
  /** Whether any request carried the injected text. */
  sawInjection: boolean;
  /** Editor replies replaced by the injected edits. */
  obeyed: number;
  close(): Promise<void>;
}

const readBody = (message: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on("data", (chunk: Buffer) => chunks.push(chunk));
    message.on("end", () => resolve(Buffer.concat(chunks)));
    message.on("error", reject);
  });

/**
 * A real HTTP endpoint for the `openai` SDK and the agents alike, forwarding every request to
 * the simulated model at `target` (same paths). It records the `x-attack-report` header of each
 * call; with `obey`, it plays an Editor that obeys injected task text: once any request carried
 * `obey.injection` (a poisoned task reached a prompt), every Editor reply (`response_format`
 * schema `edits`) is replaced by `obey.edits()` — what the injection asked for.
 */
export async function startModelProxy(options: {
  target: string;
  obey?: { injection: string; edits: () => unknown[] };
}): Promise<ModelProxy> {
  const target = new URL(options.target);
  const proxy: Omit<ModelProxy, "url" | "close"> = { reports: [], sawInjection: false, obeyed: 0 };
  const server = createServer(async (incoming, outgoing) => {
    const body = await readBody(incoming);
    const report = incoming.headers["x-attack-report"];
    if (typeof report === "string" && report) proxy.reports.push(JSON.parse(report));
    const text = body.toString("utf8");
    if (options.obey && text.includes(options.obey.injection)) proxy.sawInjection = true;
    const editor = /"name":\s*"edits"/.test(text) && proxy.sawInjection && options.obey;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      async (reply) => {
        let answer = await readBody(reply);
        if (editor && reply.statusCode === 200) {
          const parsed = JSON.parse(answer.toString("utf8"));
          parsed.choices[0].message.content = JSON.stringify({ edits: editor.edits() });
          answer = Buffer.from(JSON.stringify(parsed));
          proxy.obeyed++;
        }
        const headers = { ...reply.headers, "content-length": String(answer.byteLength) };
        delete headers["transfer-encoding"];
        outgoing.writeHead(reply.statusCode ?? 502, headers).end(answer);
      },
    );
    upstream.on("error", () => outgoing.writeHead(502).end());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
