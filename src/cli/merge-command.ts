import { join } from "node:path";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { readEvalOutput, writeEvalOutput } from "../eval/eval-output.js";
import { mergeEvalResults, mergeRecords } from "../eval/merge-results.js";
import { RolloutCache } from "../eval/rollout-cache.js";
import type { EvalResult } from "../eval/types.js";
import { type CliCommand, resolvePath, validateFlags } from "./command.js";
import { formatEvalSummary } from "./eval-summary.js";
import { checkShardsComplete, readShardMarker } from "./shard-marker.js";

const mergeFlagsSchema = z.object({ out: z.string().min(1) }).strict();

/** `ecdysis merge`: unions shard outputs into one result, one records file and one cache. */
export const mergeCommand: CliCommand = {
  name: "merge",
  summary: "merge the outputs of 'eval --shard' runs into one result",
  help: `Usage: ecdysis merge --out DIR SHARD_DIR...

Reads eval.json (and eval-<split>.json) plus records.jsonl from each shard folder, and writes
DIR/eval.json — the same result an unsharded run gives — DIR/records.jsonl (the union of the
records) and DIR/cache/rollouts/ (a rollout cache holding them: point a later run's 'cacheDir'
at DIR/cache and eval, evolve and gate find these rollouts done).
Shards must come from one evaluation (same split, harness and model), be disjoint and complete
(every shard I/N of the run, as recorded in each folder's shard.json).

Example: ecdysis merge --out merged shard-1 shard-2 shard-3
`,
  options: { out: { type: "string" } },
  allowPositionals: true,
  async run(args, io) {
    const flags = validateFlags("merge", mergeFlagsSchema, args.values);
    if (args.positionals.length === 0)
      throw new InputError("ecdysis merge", "give at least one shard folder");
    const dirs = args.positionals.map((dir) => resolvePath(io, dir));
    const shards = await Promise.all(dirs.map((dir) => readEvalOutput(dir)));
    checkShardsComplete(
      await Promise.all(dirs.map(async (dir) => ({ dir, marker: await readShardMarker(dir) }))),
    );
    const names = new Set(shards.flatMap((shard) => Object.keys(shard.results)));
    const results: Record<string, EvalResult> = {};
    for (const name of [...names].sort()) {
      const parts = shards.map((shard) => shard.results[name]);
      if (parts.some((part) => part === undefined)) {
        throw new InputError(
          name,
          "present in some shard folders but not in others; shards must use the same --split",
        );
      }
      results[name] = mergeEvalResults(parts as EvalResult[], `${name} of ${dirs.join(", ")}`);
    }
    const records = mergeRecords(shards.map((shard) => shard.records));
    const outDir = resolvePath(io, flags.out);
    await writeEvalOutput(outDir, { results, records });
    const cache = new RolloutCache(join(outDir, "cache", "rollouts"));
    for (const record of records) await cache.put(record);
    io.stdout.write(formatEvalSummary(results["eval.json"]));
    io.stdout.write(`merged ${shards.length} shards, ${records.length} records into ${outDir}\n`);
    return 0;
  },
};
