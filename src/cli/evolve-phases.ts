import type { LoadedConfig } from "../config/config-schema.js";
import { ecdysisVersion } from "../config/ecdysis-version.js";
// Integration point: the phases of src/evolve (docs/scale-out.md).
import { runEvolveSearch, runMeasureShard, silentSearch } from "../evolve/index.js";
import { serveSimModel } from "../sim/index.js";
import type { CliIo } from "./command.js";
import { RunStatus } from "./run-status.js";
import type { ShardMarker } from "./shard-marker.js";
import { shellQuote } from "./shell-command.js";

/** The phases `ecdysis evolve --phase` runs (`all`, the default, is the whole run in one process). */
export const evolvePhases = ["all", "search", "measure", "finish"] as const;

function status(io: CliIo, phase: string): RunStatus {
  return new RunStatus({
    stream: io.stderr,
    env: io.env,
    title: `ecdysis evolve --phase ${phase}`,
    signal: io.signal,
  });
}

/** `--phase search`: the loop alone; prints what the final harness is and the next phases. */
export async function searchPhase(options: {
  io: CliIo;
  loaded: LoadedConfig;
  outDir: string;
  limit?: number;
  restart?: boolean;
  command: string[];
}): Promise<number> {
  const { io } = options;
  const display = status(io, "search");
  const handoff = await runEvolveSearch({
    loaded: options.loaded,
    simServer: serveSimModel,
    outDir: options.outDir,
    env: io.env,
    progress: display.progress(),
    onCall: (event) => display.onCall(event),
    limit: options.limit,
    restart: options.restart,
    warn: (message) => display.note(`warning: ${message}`),
    metadata: { ecdysisVersion: ecdysisVersion() },
  }).finally(() => display.close());
  const same = handoff.finalHash === handoff.seedHash;
  // A search that stopped because the agent or the refiner never answered did not do its job.
  const silent = silentSearch(handoff);
  if (silent) {
    io.stderr.write(`${silent}\n`);
    return 1;
  }
  const again = (phase: string) =>
    [...options.command, "--phase", phase].map((word) => shellQuote(word)).join(" ");
  io.stdout.write(
    `search done: final harness ${handoff.finalHash.slice(0, 12)}${same ? " (the seed: nothing accepted)" : ""}, measured at ${handoff.finalSamples} sample(s) per task\n` +
      `next, one per shard (any N, on any machines, each with a copy of ${options.outDir}):\n` +
      `  ${again("measure")} --shard 1/N … --shard N/N\n` +
      `then, with the shards' cache folders merged into this one:\n  ${again("finish")}\n`,
  );
  return 0;
}

/** `--phase measure --shard I/N`: one shard of the seed and final measurement. */
export async function measurePhase(options: {
  io: CliIo;
  loaded: LoadedConfig;
  outDir: string;
  shard: ShardMarker;
  limit?: number;
}): Promise<number> {
  const { io } = options;
  const display = status(io, "measure");
  const outcome = await runMeasureShard({
    loaded: options.loaded,
    simServer: serveSimModel,
    outDir: options.outDir,
    shard: options.shard,
    limit: options.limit,
    env: io.env,
    progress: display.progress(),
    onCall: (event) => display.onCall(event),
    ecdysisVersion: ecdysisVersion(),
  }).finally(() => display.close());
  const [seedTrain, seedHeldout] = outcome.measured;
  const cached = outcome.measured.reduce((sum, each) => sum + each.result.cost.cachedRollouts, 0);
  io.stdout.write(
    `measure shard ${options.shard.index + 1}/${options.shard.count}: ${seedTrain.result.n} train and ${seedHeldout.result.n} held-out tasks, seed and final harness: ${outcome.spend.rollouts} rollouts run, ${cached} cached\n` +
      `its rollouts and what it spent are in ${options.loaded.config.cacheDir}: merge the shards' cache folders into the finishing one, then run --phase finish\n`,
  );
  return 0;
}
