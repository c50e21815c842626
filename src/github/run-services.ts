import * as core from "@actions/core";
import { untilAborted } from "../errors/interrupted-error.js";
import type { ConfigFacts } from "./action-engine.js";
import { uploadRunArtifact } from "./artifact.js";
import { restoreRolloutCache, rolloutCacheKeys, saveRolloutCache } from "./cache.js";
import type { ModeContext } from "./mode-context.js";
import { periodicSaves } from "./periodic-save.js";

/**
 * Run `task` between a restore and a save of the rollout cache, saved even when it fails. On
 * SIGINT/SIGTERM (`context.signal`) the task is left at once, the cache holding every finished
 * rollout is saved, and the interrupt is rethrown: a re-run restores it and pays for none again.
 * While the task runs, the cache is also saved every `cache-save-minutes` (each under its own
 * key, `<save key>-p<n>`, which the restore keys' prefixes find): a job killed without a signal
 * (SIGKILL, a lost runner) keeps what the last of them held. A record cut short by a save is a
 * miss when read back, and is run again.
 */
export async function withRolloutCache<T>(
  context: ModeContext,
  facts: ConfigFacts,
  task: () => Promise<T>,
): Promise<T> {
  const { phase, shard } = context.options;
  const keys = rolloutCacheKeys({
    configHash: facts.configHash,
    harnessHash: facts.harnessHash,
    runId: context.run.runId,
    runAttempt: context.run.runAttempt,
    part:
      phase === "all" ? undefined : shard ? `${phase}-${shard.index + 1}of${shard.count}` : phase,
  });
  const hit = await restoreRolloutCache({
    dir: facts.cacheDir,
    keys,
    warn: core.warning,
    service: context.cacheService,
  });
  core.info(hit ? `rollout cache restored from ${hit}` : "rollout cache: no earlier entry");
  const periodic = periodicSaves({
    everyMs: context.options["cache-save-minutes"] * 60_000,
    ticker: context.ticker,
    save: async (count) => {
      const save = `${keys.save}-p${count}`;
      const saved = await saveRolloutCache({
        dir: facts.cacheDir,
        keys: { ...keys, save },
        warn: core.warning,
        service: context.cacheService,
      });
      if (saved) core.info(`rollout cache saved as ${save}`);
    },
  });
  try {
    context.signal?.throwIfAborted();
    return await untilAborted(task(), context.signal);
  } finally {
    await periodic.stop();
    await saveRolloutCache({
      dir: facts.cacheDir,
      keys,
      warn: core.warning,
      service: context.cacheService,
    });
  }
}

/**
 * The artifact name of a run: mode, harness folder, run id and attempt, so two harnesses (two
 * steps or jobs) of one workflow run, or a re-run attempt, never collide.
 */
function artifactName(options: {
  mode: string;
  harnessPath: string;
  runId: string;
  runAttempt: string;
}): string {
  const slug =
    options.harnessPath
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "harness";
  return `ecdysis-${options.mode}-${slug}-${options.runId}-${options.runAttempt}`;
}

/** Upload the run folder (report, result, traces) under `artifactName`, secrets scrubbed. */
export function publishArtifact(
  context: ModeContext,
  dir: string,
  harnessPath: string,
): Promise<boolean> {
  return uploadRunArtifact({
    name: artifactName({
      mode: context.options.mode,
      harnessPath,
      runId: context.run.runId,
      runAttempt: context.run.runAttempt,
    }),
    dir,
    scrub: (text) => context.scrubber.scrub(text),
    warn: core.warning,
    uploader: context.uploader,
  });
}
