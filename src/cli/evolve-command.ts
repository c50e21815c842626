import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { type LoadedConfig, strategyNameSchema, strategyNames } from "../config/config-schema.js";
import { ecdysisVersion } from "../config/ecdysis-version.js";
import { gitState } from "../config/git-state.js";
import { loadConfig } from "../config/load-config.js";
import { InputError } from "../errors/input-error.js";
import { parseShard } from "../eval/shard-tasks.js";
// Integration point: runEvolve from src/evolve (docs/stage-interfaces.md).
import { learnedNothing, runEvolve } from "../evolve/index.js";
import { readRunRecords } from "../evolve/run-records.js";
import { patchBase } from "../harness/patch-root.js";
import { stopSentence, writeEvolveReports } from "../report/index.js";
import { serveSimModel } from "../sim/index.js";
import { evolveAgentErrorWarning } from "./agent-error-warning.js";
import {
  type CliCommand,
  outFolder,
  resolvePath,
  validateFlags,
  withConcurrency,
} from "./command.js";
import { evolvePhases, measurePhase, searchPhase } from "./evolve-phases.js";
import { formatEvolveSummary } from "./evolve-summary.js";
import { RunStatus } from "./run-status.js";
import { countUnknownInEvolve, unknownTaskWarning } from "./unknown-task-warning.js";

const evolveFlagsSchema = z
  .object({
    config: z.string().min(1),
    strategy: strategyNameSchema.optional(),
    out: z.string().min(1),
    resume: z.boolean().default(false),
    restart: z.boolean().default(false),
    limit: z.coerce.number().int().positive().optional(),
    concurrency: z.coerce.number().int().positive().max(256).optional(),
    phase: z.enum(evolvePhases).default("all"),
    shard: z.string().optional(),
  })
  .strict();

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** `ecdysis evolve`: trains the harness and writes result.json, the report and the evolved harness. */
export const evolveCommand: CliCommand = {
  name: "evolve",
  summary: "evolve the harness (diagnose failures across tasks, refine, validate, gate)",
  help: `Usage: ecdysis evolve --config FILE --out DIR [--strategy ${strategyNames.join("|")}]
                      [--resume | --restart] [--limit N] [--concurrency C]
                      [--phase all|search|measure|finish] [--shard I/N]

Runs the strategy on the train split, then the held-out gate, and writes DIR/result.json,
DIR/report.md, DIR/report.html, DIR/harness/ (the evolved files) and DIR/harness.patch, whose
paths are relative to the repository root holding the config (else the config folder), so
'git apply DIR/harness.patch' works from there. The run journals its stages in DIR: re-running
into the same DIR with the same config continues where it stopped, without repeating finished
rollouts or LLM calls. --resume insists on that (it fails when DIR holds no run). The journal
is keyed by everything that determines the result (seed harness, task files, config, models and
simulated world, scorer, --limit, Ecdysis version): a run of other inputs is refused, naming
what changed; a damaged journal is refused naming its line (a last line cut short by a kill is
dropped, with a warning). One run at a time: DIR is locked while it runs (a second run refuses,
naming the holder; the lock of a killed run is taken over).

  --restart         discard the journal in DIR and start the run over (cached rollouts and
                    LLM calls are still reused, so only work of changed inputs is paid again)

  --limit N         a quick run on at most N train and N held-out tasks, the same every time
                    (categories in turn); another run than the full one (its own journal key)
  --concurrency C   agent rollouts in flight, one limit for all the run's evaluations
                    (default: the config's 'concurrency')

  --phase P         run one phase of the run, so several machines can share it
                    (docs/scale-out.md): 'search' (the loop; writes DIR/harness/ and
                    DIR/search.json), 'measure --shard I/N' (shard I of N of the seed and
                    final measurement, into the config's cacheDir; needs the search's DIR),
                    'finish' (on the search's DIR and the shards' merged cacheDir: the
                    measurement from the cache, result.json and the reports). The result is
                    the one a single process gives, whatever N. Default 'all': everything here.

Example: ecdysis evolve --config examples/quickstart/ecdysis.yml --out .ecdysis/quickstart
`,
  options: {
    config: { type: "string" },
    strategy: { type: "string" },
    out: { type: "string" },
    resume: { type: "boolean" },
    restart: { type: "boolean" },
    limit: { type: "string" },
    concurrency: { type: "string" },
    phase: { type: "string" },
    shard: { type: "string" },
  },
  async run(args, io) {
    const flags = validateFlags("evolve", evolveFlagsSchema, args.values);
    const loaded = withConcurrency(
      await loadConfig(resolvePath(io, flags.config)),
      flags.concurrency,
    );
    const outDir = await outFolder(io, flags.out);
    const journal = join(outDir, "journal.jsonl");
    if (flags.resume && flags.restart)
      throw new InputError("ecdysis evolve", "--resume and --restart exclude each other", {
        field: "--restart",
      });
    if (flags.shard && flags.phase !== "measure")
      throw new InputError("ecdysis evolve", "--shard goes with --phase measure", {
        field: "--shard",
      });
    if (flags.resume && !(await exists(journal)))
      throw new InputError(journal, "nothing to resume: no run journal in the --out folder");
    const chosen = withStrategy(loaded, flags.strategy);
    if (flags.phase === "search" || flags.phase === "measure")
      return splitPhase({ io, flags, loaded: chosen, outDir, values: args.values });
    const status = new RunStatus({
      stream: io.stderr,
      env: io.env,
      title: "ecdysis evolve",
      signal: io.signal,
    });
    const base = patchBase({
      configDir: loaded.root,
      harnessDir: resolve(loaded.root, loaded.config.harness.dir),
    });
    const result = await runEvolve({
      loaded: chosen,
      simServer: serveSimModel,
      outDir,
      patchPrefix: base.prefix,
      env: io.env,
      progress: status.progress(),
      onCall: (event) => status.onCall(event),
      onIteration: (line) => status.note(line),
      limit: flags.limit,
      restart: flags.restart,
      phase: flags.phase === "finish" ? "finish" : "all",
      warn: (message) => status.note(`warning: ${message}`),
      metadata: { ecdysisVersion: ecdysisVersion(), git: await gitState(loaded.root) },
    }).finally(() => status.close());
    await writeEvolveReports({ outDir, result });
    const warning = await unknownTaskWarning(loaded.config.model, countUnknownInEvolve(result));
    if (warning) io.stderr.write(warning);
    const records = await readRunRecords(outDir);
    const agentErrors = records && evolveAgentErrorWarning(records);
    if (agentErrors) io.stderr.write(agentErrors);
    io.stdout.write(formatEvolveSummary({ result, outDir, cwd: io.cwd, base }));
    // A run that stopped because the agent or the refiner never answered did not do its job.
    if (learnedNothing(result)) {
      io.stderr.write(`ecdysis evolve ${stopSentence(result)}\n`);
      return 1;
    }
    return 0;
  },
};

/** The config with `--strategy` applied. */
function withStrategy(
  loaded: LoadedConfig,
  strategy: z.output<typeof strategyNameSchema> | undefined,
): LoadedConfig {
  if (!strategy) return loaded;
  return { ...loaded, config: { ...loaded.config, evolve: { ...loaded.config.evolve, strategy } } };
}

/** `--phase search` or `--phase measure --shard I/N` (docs/scale-out.md). */
function splitPhase(input: {
  io: Parameters<CliCommand["run"]>[1];
  flags: z.output<typeof evolveFlagsSchema>;
  loaded: LoadedConfig;
  outDir: string;
  values: Record<string, unknown>;
}): Promise<number> {
  const { io, flags, loaded, outDir } = input;
  if (flags.phase === "search") {
    const command = phaseCommand(input.values);
    return searchPhase({ io, loaded, outDir, limit: flags.limit, restart: flags.restart, command });
  }
  if (!flags.shard)
    throw new InputError("ecdysis evolve", "--phase measure needs --shard I/N", {
      field: "--shard",
    });
  const shard = parseShard(flags.shard);
  return measurePhase({ io, loaded, outDir, shard, limit: flags.limit });
}

/** `ecdysis evolve` with the flags every phase of one run must share (for the next-steps lines). */
function phaseCommand(values: Record<string, unknown>): string[] {
  const words = ["ecdysis", "evolve"];
  for (const flag of ["config", "out", "strategy", "limit"]) {
    const value = values[flag];
    if (typeof value === "string") words.push(`--${flag}`, value);
  }
  return words;
}
