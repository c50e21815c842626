import * as core from "@actions/core";
import { evolveOverrides, llmOverrides, type ModeContext } from "./mode-context.js";
import { withRolloutCache } from "./run-services.js";
import { logGroup } from "./summary.js";

/**
 * `mode: evolve` with `phase: search` or `phase: measure` (docs/scale-out.md): one job of a
 * split run. The search writes the run folder (`run-dir`); a measure shard adds its rollouts to
 * the rollout cache. Neither pushes or opens anything: `phase: finish` does, on the merged caches.
 * Both run between a restore and a save of the rollout cache, so a job cut short keeps its work.
 */
export async function runEvolvePhase(context: ModeContext): Promise<void> {
  const { engine, options, report } = context;
  const phase = options.phase === "search" ? "search" : "measure";
  const facts = await engine.describe({ configPath: context.configPath });
  core.info(`evolve phase ${phase}: run folder ${context.outDir}, rollout cache ${facts.cacheDir}`);
  const outcome = await withRolloutCache(context, facts, () =>
    logGroup(`evolve ${phase}`, () =>
      engine.evolvePhase({
        configPath: context.configPath,
        outDir: context.outDir,
        llm: llmOverrides(options),
        overrides: evolveOverrides(options),
        phase,
        shard: options.shard,
      }),
    ),
  );
  report.summaryMarkdown = outcome.summaryMarkdown;
  if (outcome.rolloutsRun !== undefined)
    core.info(`${outcome.rolloutsRun} rollouts run, ${outcome.rolloutsCached ?? 0} cached`);
  if (outcome.failure) report.problem(outcome.failure);
}
