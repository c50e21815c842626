import { join } from "node:path";
// Integration point: runBench from src/bench.
import { benchOptionsSchema, runBench } from "../bench/index.js";
import { strategyNames } from "../config/config-schema.js";
import { type CliCommand, resolvePath, resolveWorldFlag, validateFlags } from "./command.js";

/** `ecdysis bench`: strategies × worlds × seeds on the simulated model, scored against ground truth. */
export const benchCommand: CliCommand = {
  name: "bench",
  summary: "benchmark ecdysis against the iterative and sampling baselines on sim worlds",
  help: `Usage: ecdysis bench --out DIR [--world W[,W2...]] [--seeds 1,...,10] [--strategies ${strategyNames.join(",")}]
                    [--budgets 5,15] [--decomposition] [--temperature T] [--probe-size N]
                    [--bootstrap-resamples N] [--bootstrap-seed S] [--latency-scale X] [--concurrency C]
                    [--resume]

Runs every strategy on every world × seed at every budget with the same latency model, measures
every harness each run had in force on a held-out probe set, and writes DIR/bench.json and
DIR/bench.md. Budgets are full-split evaluations (rollouts = budget × train tasks). Without
--world, all bundled worlds. --decomposition adds Ecdysis without pipelining and a neutral
refiner at the largest budget. --resume reuses the runs an earlier bench finished in DIR under
the same settings and the same committed code (each run keeps DIR/runs/*/bench-run.json), so a
crashed bench goes on where it stopped and benches of other seeds in DIR are assembled.
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
    await runBench({
      ...raw,
      outDir,
      onRun: (run, index, total, reused) => {
        io.stderr.write(
          `bench: run ${index + 1}/${total} ${reused ? "reused" : "done"} (${run.world} seed ${run.seed} ${run.strategy})\n`,
        );
      },
    });
    io.stdout.write(`wrote ${join(outDir, "bench.json")} and ${join(outDir, "bench.md")}\n`);
    return 0;
  },
};
