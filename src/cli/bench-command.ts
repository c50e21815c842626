import { join } from "node:path";
// Integration point: runBench from src/bench.
import { benchOptionsSchema, runBench } from "../bench/index.js";
import { strategyNames } from "../config/config-schema.js";
import { InputError } from "../errors/input-error.js";
import {
  type CliCommand,
  type CliIo,
  resolvePath,
  resolveWorldFlag,
  validateFlags,
} from "./command.js";
import { runShares, seedShares } from "./side-by-side.js";

/** `ecdysis bench`: strategies × worlds × seeds on the simulated model, scored against ground truth. */
export const benchCommand: CliCommand = {
  name: "bench",
  summary: "benchmark ecdysis against the iterative and sampling baselines on sim worlds",
  help: `Usage: ecdysis bench --out DIR [--world W[,W2...]] [--seeds 1,...,10] [--strategies ${strategyNames.join(",")}]
                    [--budgets 5,15] [--decomposition] [--temperature T] [--probe-size N]
                    [--bootstrap-resamples N] [--bootstrap-seed S] [--latency-scale X] [--concurrency C]
                    [--resume] [--jobs N]

Runs every strategy on every world × seed at every budget with the same latency model, measures
every harness each run had in force on a held-out probe set, and writes DIR/bench.json and
DIR/bench.md. Budgets are full-split evaluations (rollouts = budget × train tasks). Without
--world, all bundled worlds. --decomposition adds Ecdysis without pipelining and a neutral
refiner at the largest budget. --resume reuses the runs an earlier bench finished in DIR under
the same settings and the same committed code (each run keeps DIR/runs/*/bench-run.json), so a
crashed bench goes on where it stopped and benches of other seeds in DIR are assembled.
--jobs N runs N bench processes side by side, the seeds dealt out between them, then assembles
their runs (implies --resume); on a machine with fewer free cores than N they share the CPU,
and bench.md says how the runs were made.
`,
  options: {
    world: { type: "string" },
    seeds: { type: "string" },
    strategies: { type: "string" },
    budgets: { type: "string" },
    decomposition: { type: "boolean" },
    temperature: { type: "string" },
    "probe-size": { type: "string" },
    "bootstrap-resamples": { type: "string" },
    "bootstrap-seed": { type: "string" },
    "latency-scale": { type: "string" },
    concurrency: { type: "string" },
    resume: { type: "boolean" },
    jobs: { type: "string" },
    out: { type: "string" },
  },
  async run(args, io) {
    const text = (name: string) => {
      const value = args.values[name];
      return typeof value === "string" ? value : undefined;
    };
    const out = text("out");
    const raw = {
      worlds: text("world"),
      seeds: text("seeds"),
      strategies: text("strategies"),
      budgets: text("budgets"),
      decomposition: args.values.decomposition === true,
      temperature: text("temperature"),
      probeSize: text("probe-size"),
      bootstrapResamples: text("bootstrap-resamples"),
      bootstrapSeed: text("bootstrap-seed"),
      latencyScale: text("latency-scale"),
      concurrency: text("concurrency"),
      resume: args.values.resume === true,
      outDir: out === undefined ? undefined : resolvePath(io, out),
    };
    const options = validateFlags("bench", benchOptionsSchema, raw, {
      worlds: "world",
      outDir: "out",
    });
    const outDir = options.outDir;
    for (const world of raw.worlds?.split(",") ?? []) {
      if (world.trim() !== "") resolveWorldFlag(io, "bench", world.trim());
    }
    const jobs = jobsOf(text("jobs"));
    const startedAtMs = Date.now();
    if (jobs > 1) {
      const failed = await runSideBySide({ io, jobs, seeds: options.seeds, raw, outDir });
      if (failed) return 1;
    }
    await runBench({
      ...raw,
      outDir,
      ...(jobs > 1 ? { resume: true, processes: jobs, startedAtMs } : {}),
      onRun: (run, index, total, reused) => {
        if (jobs > 1 && reused) return;
        io.stderr.write(
          `bench: run ${index + 1}/${total} ${reused ? "reused" : "done"} (${run.world} seed ${run.seed} ${run.strategy})\n`,
        );
      },
    });
    io.stdout.write(`wrote ${join(outDir, "bench.json")} and ${join(outDir, "bench.md")}\n`);
    return 0;
  },
};

function jobsOf(value: string | undefined): number {
  const jobs = value === undefined ? 1 : Number(value);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)
    throw new InputError(
      "ecdysis bench",
      `'--jobs' must be an integer from 1 to 64, got '${value}'`,
      {
        field: "--jobs",
      },
    );
  return jobs;
}

/** The bench's runs made by `jobs` processes of this CLI side by side; true when one failed. */
async function runSideBySide(options: {
  io: CliIo;
  jobs: number;
  seeds: number[];
  raw: Record<string, string | boolean | undefined>;
  outDir: string;
}): Promise<boolean> {
  const { io, raw } = options;
  if (!io.self)
    throw new InputError(
      "ecdysis bench",
      "'--jobs' needs the ecdysis command itself (run it as a process)",
      {
        field: "--jobs",
      },
    );
  const flag = (name: string, value: string | boolean | undefined) =>
    typeof value === "string" ? [`--${name}`, value] : [];
  const forwarded = [
    "bench",
    ...flag("world", raw.worlds),
    ...flag("strategies", raw.strategies),
    ...flag("budgets", raw.budgets),
    ...(raw.decomposition === true ? ["--decomposition"] : []),
    ...flag("temperature", raw.temperature),
    ...flag("probe-size", raw.probeSize),
    ...flag("latency-scale", raw.latencyScale),
    ...flag("concurrency", raw.concurrency),
    "--resume",
    "--out",
    options.outDir,
  ];
  const codes = await runShares({
    command: io.self,
    shares: seedShares(options.seeds, options.jobs),
    argsFor: (share) => [...forwarded, "--seeds", share.join(",")],
    onLine: (line) => {
      if (!line.startsWith("wrote ")) io.stderr.write(`${line}\n`);
    },
  });
  if (codes.every((code) => code === 0)) return false;
  io.stderr.write(
    "bench: a bench process failed; its finished runs are recorded — run the same command again to go on\n",
  );
  return true;
}
