import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * The program the sandbox runs first (as `node -e`, so no file has to ship beside the bundle):
 * it listens on the sandbox's own loopback, `127.0.0.1:<port>` (and `[::1]` where there is
 * one), pipes each connection to the unix socket mounted at `<socket>` — the only way out of
 * the sandbox's network — and then starts the agent (`argv`, stdio inherited) and exits with
 * its exit status. The agent thus calls the same `http://127.0.0.1:<port>/v1` inside and
 * outside the sandbox. Arguments: `<port> <socket> <argv…>`.
 */
export const insideRelaySource = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const [port, socket, ...argv] = process.argv.slice(1);
const relay = (client) => {
  const upstream = net.createConnection(socket);
  client.pipe(upstream).pipe(client);
  const end = () => { client.destroy(); upstream.destroy(); };
  client.on("error", end);
  upstream.on("error", end);
};
const listen = (host) => new Promise((resolve) => {
  const server = net.createServer(relay);
  server.on("error", () => resolve(false));
  server.listen(Number(port), host, () => resolve(true));
});
Promise.all([listen("127.0.0.1"), listen("::1")]).then(([v4]) => {
  if (!v4) { process.stderr.write("ecdysis sandbox: cannot listen on 127.0.0.1:" + port + "\\n"); process.exit(125); }
  const child = spawn(argv[0], argv.slice(1), { stdio: "inherit" });
  child.on("error", (error) => { process.stderr.write("ecdysis sandbox: could not start " + argv[0] + ": " + error.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (require("node:os").constants.signals[signal] ?? 0)));
});
`;

/** A host-side relay: connections to its unix socket piped to one TCP host:port. */
export interface ModelRelay {
  socket: string;
  close(): Promise<void>;
}

/**
 * INTERIM (until the model gateway of issue #23 is wired in, which listens on a unix socket of
 * its own and replaces this): listens on the unix socket `socket` and pipes every connection,
 * byte for byte, to `host:port` of the model endpoint. A plain TCP pipe: enough for a loopback
 * endpoint (the simulated model, a local server); it neither reads nor meters the traffic.
 */
export function startModelRelay(options: {
  socket: string;
  host: string;
  port: number;
}): Promise<ModelRelay> {
  const connections = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: options.host, port: options.port });
    for (const end of [client, upstream]) {
      connections.add(end);
      end.on("close", () => connections.delete(end));
      end.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.socket, () => {
      resolve({
        socket: options.socket,
        close: () =>
          new Promise((done) => {
            for (const connection of connections) connection.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
