import * as core from "@actions/core";
import type { ConfigFacts } from "./action-core.js";
import { uploadRunArtifact } from "./artifact.js";
import { restoreRolloutCache, rolloutCacheKeys, saveRolloutCache } from "./cache.js";
import type { ModeContext } from "./mode-context.js";

/** Run `task` between a restore and a save of the rollout cache (saved even when it fails). */
export async function withRolloutCache<T>(
  context: ModeContext,
  facts: ConfigFacts,
  task: () => Promise<T>,
): Promise<T> {
  const keys = rolloutCacheKeys({
    configHash: facts.configHash,
    harnessHash: facts.harnessHash,
    runId: context.run.runId,
  });
  const hit = await restoreRolloutCache({
    dir: facts.cacheDir,
    keys,
    warn: core.warning,
    service: context.cacheService,
  });
  core.info(hit ? `rollout cache restored from ${hit}` : "rollout cache: no earlier entry");
  try {
    return await task();
  } finally {
    await saveRolloutCache({
      dir: facts.cacheDir,
      keys,
      warn: core.warning,
      service: context.cacheService,
    });
  }
}

/** Upload the run folder (report, result, traces) as `ecdysis-<mode>-<run id>`, secrets scrubbed. */
export function publishArtifact(context: ModeContext, dir: string): Promise<boolean> {
  return uploadRunArtifact({
    name: `ecdysis-${context.options.mode}-${context.run.runId}`,
    dir,
    scrub: (text) => context.scrubber.scrub(text),
    warn: core.warning,
    uploader: context.uploader,
  });
}
