import { join } from "node:path";
import { z } from "zod";
import { loadConfig } from "../config/load-config.js";
import { writeEvalOutput } from "../eval/eval-output.js";
import { createProgress } from "../eval/progress.js";
import { runEval } from "../eval/run-eval.js";
import { parseShard } from "../eval/shard-tasks.js";
import { type CliCommand, resolvePath, validateFlags } from "./command.js";
import { formatDowngrades, formatEvalSummary } from "./eval-summary.js";
import { writeShardMarker } from "./shard-marker.js";

const evalFlagsSchema = z
  .object({
    config: z.string().min(1),
    split: z.enum(["train", "heldout", "all"]).default("train"),
    harness: z.string().min(1).optional(),
    shard: z.string().optional(),
    samples: z.coerce.number().int().positive().optional(),
    out: z.string().min(1),
  })
  .strict();

/** `ecdysis eval`: scores a harness on a split and writes eval.json + records.jsonl. */
export const evalCommand: CliCommand = {
  name: "eval",
  summary: "evaluate a harness on the train or held-out tasks",
  help: `Usage: ecdysis eval --config FILE --out DIR [--split train|heldout|all] [--harness DIR] [--shard I/N] [--samples K]

Runs the harness on every task of the split (K samples each, pass = majority) through the rollout
cache and writes DIR/eval.json (accuracy, 95% interval, per-category and per-task results, cost)
and DIR/records.jsonl (one rollout record per line). With --split all, DIR/eval-train.json and
DIR/eval-heldout.json hold the splits and DIR/eval.json the combined result.

  --config FILE     ecdysis.yml
  --out DIR         output folder
  --split S         train (default), heldout or all
  --harness DIR     evaluate this harness folder instead of the config's
  --shard I/N       only shard I of N (1-based; deterministic by task id); combine with 'ecdysis merge'
  --samples K       samples per task (default: the config's 'samples')

Example: ecdysis eval --config examples/quickstart/ecdysis.yml --split heldout --out .ecdysis/eval
`,
  options: {
    config: { type: "string" },
    split: { type: "string" },
    harness: { type: "string" },
    shard: { type: "string" },
    samples: { type: "string" },
    out: { type: "string" },
  },
  async run(args, io) {
    const flags = validateFlags("eval", evalFlagsSchema, args.values);
    const shard = flags.shard ? parseShard(flags.shard) : undefined;
    const loaded = await loadConfig(resolvePath(io, flags.config));
    const outDir = resolvePath(io, flags.out);
    const { results, records, downgrades } = await runEval({
      loaded,
      split: flags.split,
      harnessDir: flags.harness ? resolvePath(io, flags.harness) : undefined,
      shard,
      samples: flags.samples,
      progress: createProgress({ stream: io.stderr, env: io.env }),
      signal: io.signal,
    });
    await writeEvalOutput(outDir, { results, records });
    await writeShardMarker(outDir, shard);
    const order = ["eval-train.json", "eval-heldout.json", "eval.json"].filter(
      (name) => results[name],
    );
    for (const name of order) io.stdout.write(formatEvalSummary(results[name]));
    io.stdout.write(formatDowngrades(downgrades));
    const written = [...order, "records.jsonl"].map((name) => join(outDir, name));
    io.stdout.write(`wrote ${written.join(", ")}\n`);
    return 0;
  },
};
