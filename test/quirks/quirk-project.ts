import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot, runCli } from "../../src/cli/testing/run-cli.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import {
  loadWorld,
  type SimEndpoint,
  type SimMisbehaviour,
  type SimServer,
  startSimServer,
} from "../../src/sim/index.js";
import type { Quirk } from "../../src/sim/world-schema.js";

/** What one row of the quirk matrix runs against: the sim, misbehaving as a real model or server does. */
export interface QuirkServer {
  quirks?: Quirk[];
  endpoint?: SimEndpoint;
  misbehaviours?: SimMisbehaviour[];
}

/** One `ecdysis evolve` of the quickstart against a loopback server, through the real openai SDK. */
export interface QuirkRun {
  /** The sim the run talked to (its request counts by side). */
  sim: SimServer;
  code: number;
  stdout: string;
  stderr: string;
  result: EvolveResult;
  report: string;
}

/**
 * Runs `ecdysis evolve` on a copy of examples/quickstart whose model is a loopback sim server
 * behaving as `server` says (`provider: openai`, so the real SDK path runs), and reads back what
 * it wrote. `edit` may change the config text (e.g. a scorer).
 */
export async function evolveQuickstart(
  server: QuirkServer,
  options: { limit?: number; edit?: (config: string) => string; servers: SimServer[] },
): Promise<QuirkRun> {
  const sim = await startSimServer({
    world: await loadWorld("quickstart"),
    latencyScale: 0,
    ...server,
  });
  options.servers.push(sim);
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-quirks-"));
  // Without the example's own cache: a local `npm start` leaves .ecdysis/ there, and its clean
  // rollouts would answer for the misbehaving server.
  await cp(join(repoRoot, "examples", "quickstart"), dir, {
    recursive: true,
    filter: (source) => !source.split(/[\\/]/).includes(".ecdysis"),
  });
  const original = await readFile(join(dir, "ecdysis.yml"), "utf8");
  let config = original.replace(
    /model:\n {2}provider: sim.*\n.*\n.*\n/,
    `model:\n  provider: openai\n  baseUrl: ${sim.url}\n  model: sim-1\n  maxRetries: 1\n`,
  );
  if (config === original)
    throw new Error("the quickstart config changed shape: update quirk-project.ts");
  config = options.edit ? options.edit(config) : config;
  await writeFile(join(dir, "ecdysis.yml"), config);
  const limit = options.limit ? ["--limit", String(options.limit)] : [];
  const run = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "out", ...limit], {
    cwd: dir,
  });
  const result = JSON.parse(
    await readFile(join(dir, "out", "result.json"), "utf8").catch(() => "null"),
  ) as EvolveResult;
  const report = await readFile(join(dir, "out", "report.md"), "utf8").catch(() => "");
  return { ...run, sim, result, report };
}
