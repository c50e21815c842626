import { loadConfig } from "../config/load-config.js";
import { createProgress } from "../eval/progress.js";
import { runEvolveSearch, runMeasureShard, silentSearch } from "../evolve/index.js";
import { serveSimModel } from "../sim/index.js";
import type { ActionEngine, EvolvePhaseOutcome } from "./action-engine.js";
import { applyOverrides } from "./engine-overrides.js";

/**
 * The search and measure phases of a split evolve behind the Action's port: the same
 * `runEvolveSearch` and `runMeasureShard` that `ecdysis evolve --phase` runs, so the jobs of a
 * matrix and the CLI's processes make one result (docs/scale-out.md).
 */
export function evolvePhaseForAction(
  ecdysisVersion: string | undefined,
): ActionEngine["evolvePhase"] {
  return (options) => runPhase(options, ecdysisVersion);
}

async function runPhase(
  options: Parameters<ActionEngine["evolvePhase"]>[0],
  ecdysisVersion: string | undefined,
): Promise<EvolvePhaseOutcome> {
  const loaded = applyOverrides(
    await loadConfig(options.configPath),
    options.llm,
    options.overrides,
  );
  const progress = createProgress({ stream: process.stderr, env: process.env });
  if (options.phase === "search") {
    const handoff = await runEvolveSearch({
      loaded,
      simServer: serveSimModel,
      outDir: options.outDir,
      env: process.env,
      progress,
      metadata: { ecdysisVersion },
    });
    const same = handoff.finalHash === handoff.seedHash;
    const failure = silentSearch(handoff);
    const outcome = phaseOutcome({
      title: "search",
      lines: [
        `Final harness \`${handoff.finalHash.slice(0, 12)}\`${same ? " (the seed: nothing accepted)" : ""}, measured at ${handoff.finalSamples} sample(s) per task.`,
        "Next: the measure shards (`phase: measure`, `shard: I/N`) on a copy of the run folder and the rollout cache, then `phase: finish` on their merged caches.",
      ],
    });
    return failure ? { ...outcome, failure } : outcome;
  }
  if (!options.shard) throw new Error("the measure phase needs a shard");
  const outcome = await runMeasureShard({
    loaded,
    simServer: serveSimModel,
    outDir: options.outDir,
    shard: options.shard,
    env: process.env,
    progress,
    ecdysisVersion,
  });
  const cached = outcome.measured.reduce((sum, each) => sum + each.result.cost.cachedRollouts, 0);
  const [train, heldout] = outcome.measured;
  return phaseOutcome({
    title: `measure, shard ${options.shard.index + 1}/${options.shard.count}`,
    lines: [
      `${train.result.n} train and ${heldout.result.n} held-out tasks, seed and final harness: ${outcome.spend.rollouts} rollouts run, ${cached} cached.`,
      "Its rollouts and what it spent are in the rollout cache folder: merge every shard's into the finishing job's, then run `phase: finish`.",
    ],
    rolloutsRun: outcome.spend.rollouts,
    rolloutsCached: cached,
  });
}

function phaseOutcome(input: {
  title: string;
  lines: string[];
  rolloutsRun?: number;
  rolloutsCached?: number;
}): EvolvePhaseOutcome {
  return {
    rolloutsRun: input.rolloutsRun,
    rolloutsCached: input.rolloutsCached,
    summaryMarkdown: `## Ecdysis evolve — ${input.title}\n\n${input.lines.join("\n\n")}\n`,
  };
}
