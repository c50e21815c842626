// Time to the first agent call of `ecdysis evolve`, and how long Ctrl-C during the preparation
// before it takes to end the run, at 1,000 and 8,000 train tasks (issue #28: the growth must stay
// ≤ 12×; Ctrl-C ≤ 3 s). The quickstart world at N/5 train and 40 held-out tasks per family; the
// agent model is a loopback endpoint that answers the endpoint check and notes the first other
// request (the first agent call), which it never answers. Each figure is one separate `node dist/cli.js` process.
// Usage: npm run build && npm exec tsx bench/first-call.ts [N ...]   (default 1000 8000)
// Prints figures; asserts nothing: they depend on the machine and its load.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const cli = join(root, "dist", "cli.js");

/** A project of the quickstart world at `perFamily` train and held-out tasks per family. */
function project(perFamily: number, baseUrl: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ecdysis-first-call-${perFamily}-`));
  const world = readFileSync(join(root, "worlds", "quickstart.yaml"), "utf8")
    .replaceAll("counts: { train: 8, heldout: 8 }", `counts: { train: ${perFamily}, heldout: 40 }`)
    .replace(/scale: [\d.]+/, "scale: 0");
  writeFileSync(join(dir, "world.yaml"), world);
  mkdirSync(join(dir, "project"));
  execFileSync(process.execPath, [cli, "init", ".", "--world", "../world.yaml"], {
    cwd: join(dir, "project"),
  });
  const config = join(dir, "project", "ecdysis.yml");
  const text = readFileSync(config, "utf8")
    .replace(/provider: sim.*\n/, `provider: openai\n  baseUrl: ${baseUrl}\n`)
    .replace(/\s*world: .*\n/, "\n");
  writeFileSync(config, text);
  return join(dir, "project");
}

/** Starts evolve; resolves with when it started, exited, and its exit code. */
function evolve(cwd: string, onStart: (child: ChildProcess) => void) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [cli, "evolve", "--config", "ecdysis.yml", "--out", "out"],
    {
      cwd,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? cwd,
        OPENAI_API_KEY: "bench",
        CI: "true",
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  onStart(child);
  return new Promise<{ started: number; ended: number; code: number | null; stderr: string }>(
    (done) =>
      child.on("close", (code) => done({ started, ended: performance.now(), code, stderr })),
  );
}

async function measure(trainTasks: number) {
  let firstCall: (() => void) | undefined;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if (request.method !== "POST") return response.writeHead(404).end();
      // The endpoint check before any work: answer it as a server would.
      if (body.includes("Reply with the word OK.")) {
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: "check",
            object: "chat.completion",
            created: 0,
            model: "sim-1",
            choices: [
              { index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" },
            ],
            usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
          }),
        );
        return;
      }
      // The first agent call: note it and never answer (the run is stopped next).
      firstCall?.();
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const dir = project(trainTasks / 5, baseUrl);
  let calledAt = 0;
  const first = await evolve(dir, (child) => {
    firstCall = () => {
      if (calledAt) return;
      calledAt = performance.now();
      child.kill("SIGTERM");
    };
  });
  if (!calledAt)
    throw new Error(`no agent call at ${trainTasks} tasks: ${first.stderr.slice(-2000)}`);
  const toFirstCall = (calledAt - first.started) / 1000;
  // Ctrl-C halfway through that preparation, on a fresh run folder.
  let signalledAt = 0;
  const interrupted = await evolve(dir, (child) => {
    firstCall = () => {};
    setTimeout(
      () => {
        signalledAt = performance.now();
        child.kill("SIGINT");
      },
      (toFirstCall * 1000) / 2,
    );
  });
  server.closeAllConnections();
  server.close();
  return {
    toFirstCall,
    ctrlC: (interrupted.ended - signalledAt) / 1000,
    ctrlCCode: interrupted.code,
    ctrlCWhen: (signalledAt - interrupted.started) / 1000,
  };
}

const sizes = process.argv.slice(2).map(Number);
console.log(
  `${cpus().length} cores, load ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`,
);
const figures = new Map<number, number>();
for (const n of sizes.length > 0 ? sizes : [1000, 8000]) {
  const result = await measure(n);
  figures.set(n, result.toFirstCall);
  console.log(
    `${n} train tasks: first agent call after ${result.toFirstCall.toFixed(2)} s; Ctrl-C at ${result.ctrlCWhen.toFixed(2)} s ended the run in ${result.ctrlC.toFixed(2)} s (exit ${result.ctrlCCode})`,
  );
}
const [small, large] = [...figures.entries()].sort((a, b) => a[0] - b[0]);
if (small && large && small !== large)
  console.log(`growth ${small[0]} → ${large[0]} train tasks: ${(large[1] / small[1]).toFixed(1)}×`);
