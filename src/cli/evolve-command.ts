import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { strategyNameSchema, strategyNames } from "../config/config-schema.js";
import { ecdysisVersion } from "../config/ecdysis-version.js";
import { gitState } from "../config/git-state.js";
import { loadConfig } from "../config/load-config.js";
import { InputError } from "../errors/input-error.js";
// Integration point: runEvolve from src/evolve (docs/stage-interfaces.md).
import { runEvolve } from "../evolve/index.js";
import { readRunRecords } from "../evolve/run-records.js";
import { patchBase } from "../harness/patch-root.js";
import { writeEvolveReports } from "../report/index.js";
import { evolveAgentErrorWarning } from "./agent-error-warning.js";
import { type CliCommand, resolvePath, validateFlags, withConcurrency } from "./command.js";
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
  --concurrency C   rollouts in flight (default: the config's 'concurrency')

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
  },
  async run(args, io) {
    const flags = validateFlags("evolve", evolveFlagsSchema, args.values);
    const loaded = withConcurrency(
      await loadConfig(resolvePath(io, flags.config)),
      flags.concurrency,
    );
    const outDir = resolvePath(io, flags.out);
    const journal = join(outDir, "journal.jsonl");
    if (flags.resume && flags.restart)
      throw new InputError(
        "ecdysis evolve",
        "--resume and --restart exclude each other: choose one",
        {
          field: "--restart",
        },
      );
    if (flags.resume && !(await exists(journal)))
      throw new InputError(journal, "nothing to resume: no run journal in the --out folder");
    const chosen = flags.strategy
      ? {
          ...loaded,
          config: {
            ...loaded.config,
            evolve: { ...loaded.config.evolve, strategy: flags.strategy },
          },
        }
      : loaded;
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
      outDir,
      patchPrefix: base.prefix,
      env: io.env,
      progress: status.progress(),
      onCall: (event) => status.onCall(event),
      limit: flags.limit,
      restart: flags.restart,
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
    return 0;
  },
};
