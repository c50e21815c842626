import { access } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { loadConfig } from "../config/load-config.js";
import { InputError } from "../errors/input-error.js";
import { createProgress } from "../eval/progress.js";
// Integration point: runEvolve from src/evolve (docs/stage-interfaces.md).
import { type EvolveResult, runEvolve } from "../evolve/index.js";
import { type CliCommand, resolvePath, validateFlags } from "./command.js";
import { formatDowngrades } from "./eval-summary.js";

const evolveFlagsSchema = z
  .object({
    config: z.string().min(1),
    strategy: z.enum(["ecdysis", "iterative", "sampling"]).optional(),
    out: z.string().min(1),
    resume: z.boolean().default(false),
  })
  .strict();

/** `ecdysis evolve`: trains the harness and writes result.json, the report and the evolved harness. */
export const evolveCommand: CliCommand = {
  name: "evolve",
  summary: "evolve the harness (diagnose failures across tasks, refine, validate, gate)",
  help: `Usage: ecdysis evolve --config FILE --out DIR [--strategy ecdysis|iterative|sampling] [--resume]

Runs the strategy on the train split, then the held-out gate, and writes DIR/result.json,
DIR/report.md, DIR/report.html, DIR/harness/ (the evolved files) and DIR/harness.patch. The run
journals its stages in DIR: re-running into the same DIR with the same config continues where it
stopped, without repeating finished rollouts or LLM calls. --resume insists on that (it fails
when DIR holds no run).

Example: ecdysis evolve --config examples/quickstart/ecdysis.yml --out .ecdysis/quickstart
`,
  options: {
    config: { type: "string" },
    strategy: { type: "string" },
    out: { type: "string" },
    resume: { type: "boolean" },
  },
  async run(args, io) {
    const flags = validateFlags("evolve", evolveFlagsSchema, args.values);
    const loaded = await loadConfig(resolvePath(io, flags.config));
    const outDir = resolvePath(io, flags.out);
    if (flags.resume) {
      const journal = join(outDir, "journal.jsonl");
      const found = await access(journal).then(
        () => true,
        () => false,
      );
      if (!found)
        throw new InputError(journal, "nothing to resume: no run journal in the --out folder");
    }
    const chosen = flags.strategy
      ? {
          ...loaded,
          config: {
            ...loaded.config,
            evolve: { ...loaded.config.evolve, strategy: flags.strategy },
          },
        }
      : loaded;
    const result = await runEvolve({
      loaded: chosen,
      outDir,
      progress: createProgress({ stream: io.stderr, env: io.env }),
    });
    io.stdout.write(
      `${summariseEvolve(result)}wrote ${join(outDir, "result.json")} and ${join(outDir, "report.md")}\n`,
    );
    return 0;
  },
};

/**
 * A few lines from result.json: accuracy before → after on both splits (with the rollouts that
 * did not reach the model, when there were any), accepted edits, and what the endpoints could
 * not do.
 */
function summariseEvolve(result: EvolveResult): string {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const infra = (split: "train" | "heldout") => {
    const count =
      (result.baseline[split].infraErrors ?? 0) + (result.final[split].infraErrors ?? 0);
    return count > 0 ? `  (${count} rollout(s) did not reach the model, not scored)` : "";
  };
  return [
    `train:   ${pct(result.baseline.train.accuracy)} → ${pct(result.final.train.accuracy)}${infra("train")}`,
    `heldout: ${pct(result.baseline.heldout.accuracy)} → ${pct(result.final.heldout.accuracy)}${infra("heldout")}`,
    `${result.acceptedEdits.length} accepted edits over ${result.iterations.length} iterations (stopped by ${result.stoppedBy})`,
    formatDowngrades(result.endpoints?.downgrades ?? []),
  ].join("\n");
}
