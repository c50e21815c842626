import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { LoadedConfig } from "../config/config-schema.js";
import { loadConfig } from "../config/load-config.js";
import { silentAgentReason } from "../diagnose/agent-replies.js";
import { crashedAgentReason } from "../eval/agent-errors.js";
import { writeEvalResults } from "../eval/eval-output.js";
import { RecordsSpool } from "../eval/records-spool.js";
import { runEval } from "../eval/run-eval.js";
import { parseShard } from "../eval/shard-tasks.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import { sandboxWarningLine } from "../report/sandbox-section.js";
import { serveSimModel } from "../sim/index.js";
import { agentErrorWarning } from "./agent-error-warning.js";
import {
  type CliCommand,
  type CliIo,
  outFolder,
  resolvePath,
  validateFlags,
  withConcurrency,
} from "./command.js";
import { formatDowngrades, formatEvalSummary } from "./eval-summary.js";
import { RunStatus } from "./run-status.js";
import { writeShardMarker } from "./shard-marker.js";
import { countUnknownTasks, unknownTaskWarning } from "./unknown-task-warning.js";

const evalFlagsSchema = z
  .object({
    config: z.string().min(1),
    split: z.enum(["train", "heldout", "all"]).default("train"),
    harness: z.string().min(1).optional(),
    shard: z.string().optional(),
    samples: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().positive().optional(),
    concurrency: z.coerce.number().int().positive().max(256).optional(),
    out: z.string().min(1),
  })
  .strict();

/** `ecdysis eval`: scores a harness on a split and writes eval.json + records.jsonl. */
export const evalCommand: CliCommand = {
  name: "eval",
  summary: "evaluate a harness on the train or held-out tasks",
  help: `Usage: ecdysis eval --config FILE --out DIR [--split train|heldout|all] [--harness DIR] [--shard I/N] [--samples K]
                    [--limit N] [--concurrency C]

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
  --limit N         a quick subset: at most N tasks per split, the same every time, categories
                    taking turns (applied before --shard)
  --concurrency C   rollouts in flight (default: the config's 'concurrency'; the model's
                    'maxConcurrency' still caps its calls in flight)

Example: ecdysis eval --config examples/quickstart/ecdysis.yml --split heldout --out .ecdysis/eval
`,
  options: {
    config: { type: "string" },
    split: { type: "string" },
    harness: { type: "string" },
    shard: { type: "string" },
    samples: { type: "string" },
    limit: { type: "string" },
    concurrency: { type: "string" },
    out: { type: "string" },
  },
  async run(args, io) {
    const flags = validateFlags("eval", evalFlagsSchema, args.values);
    const shard = flags.shard ? parseShard(flags.shard) : undefined;
    const loaded = withConcurrency(
      await loadConfig(resolvePath(io, flags.config)),
      flags.concurrency,
    );
    const outDir = await outFolder(io, flags.out);
    const status = new RunStatus({
      stream: io.stderr,
      env: io.env,
      title: "ecdysis eval",
      signal: io.signal,
    });
    // Bad input must leave nothing behind: a folder this run creates goes again if it fails.
    const created = await mkdir(outDir, { recursive: true });
    // Every record goes to a spool on disk; only the failing ones (the warnings') stay in memory.
    const spool = await RecordsSpool.open(outDir);
    const { results, records, downgrades, sandbox } = await runEval({
      loaded,
      simServer: serveSimModel,
      env: io.env,
      limit: flags.limit,
      split: flags.split,
      harnessDir: flags.harness ? resolvePath(io, flags.harness) : undefined,
      shard,
      samples: flags.samples,
      progress: status.progress(),
      signal: io.signal,
      keep: (record) => !record.verdict.pass,
      onRecord: (record) => spool.add(record),
    })
      .catch(async (error: unknown) => {
        await spool.discard();
        if (created) await rm(created, { recursive: true, force: true });
        throw error;
      })
      .finally(() => status.close());
    await writeEvalResults(outDir, results);
    // eval.json holds every task evaluated (both splits' with --split all).
    await spool.write(join(outDir, "records.jsonl"), [results["eval.json"]]);
    await writeShardMarker(outDir, shard);
    const order = ["eval-train.json", "eval-heldout.json", "eval.json"].filter(
      (name) => results[name],
    );
    for (const name of order) io.stdout.write(formatEvalSummary(results[name]));
    const total = results["eval.json"].cost.rollouts + results["eval.json"].cost.cachedRollouts;
    await warnAboutRecords({ io, loaded, result: results["eval.json"], records, total });
    io.stdout.write(formatDowngrades(downgrades));
    io.stderr.write(sandboxWarningLine(sandbox));
    const written = [...order, "records.jsonl"].map((name) => join(outDir, name));
    io.stdout.write(`wrote ${written.join(", ")}\n`);
    const unmeasured = nothingMeasured(records, total);
    if (!unmeasured) return 0;
    io.stderr.write(`error: nothing was measured: ${unmeasured}\n`);
    return 1;
  },
};

/**
 * Why a run in which the agent never ran to an answer measured nothing (it crashed, or answered
 * nothing, every time). `records` holds the failing rollouts only: all failed when it holds `total`.
 */
function nothingMeasured(records: RolloutRecord[], total: number): string | undefined {
  return (
    crashedAgentReason(records, total) ??
    (records.length === total ? silentAgentReason(records) : undefined)
  );
}

/** The warnings the failing records call for: tasks outside the sim's world, agent errors. */
async function warnAboutRecords(input: {
  io: CliIo;
  loaded: LoadedConfig;
  result: EvalResult;
  records: RolloutRecord[];
  total: number;
}): Promise<void> {
  const { io, records } = input;
  const unknown = await unknownTaskWarning(
    input.loaded.config.model,
    countUnknownTasks(input.result, records),
  );
  if (unknown) io.stderr.write(unknown);
  const agentErrors = agentErrorWarning(records, { total: input.total, what: "rollouts" });
  if (agentErrors) io.stderr.write(agentErrors);
}
