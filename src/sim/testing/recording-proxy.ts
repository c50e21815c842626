import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

/** One chat request as it went over the wire through the proxy. */
export interface RecordedRequest {
  path: string;
  body: unknown;
}

/** A loopback HTTP proxy in front of an endpoint that keeps every request body it forwards. */
export interface RecordingProxy {
  /** The proxy's base URL: the target's, with the proxy's host and port. */
  url: string;
  /** Every request forwarded so far, in arrival order (bodies parsed as JSON when they are). */
  recorded(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Test double of the network between an agent and its model: forwards every request to
 * `target` unchanged and records it, so a test can see what a user's agent process really sent
 * (its system prompt, its tools) without asking the agent to report it.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const recorded: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const raw = Buffer.concat(chunks);
      recorded.push({ path: incoming.url ?? "", body: parseJson(raw.toString("utf8")) });
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (reply) => {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(outgoing);
        },
      );
      forwarded.on("error", (error) => {
        outgoing.writeHead(502, { "content-type": "application/json" });
        outgoing.end(JSON.stringify({ error: { message: `proxy: ${error.message}` } }));
      });
      forwarded.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString().replace(/\/$/, ""),
    recorded: () => [...recorded],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
