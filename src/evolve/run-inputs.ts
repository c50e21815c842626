import path from "node:path";
import { decideSandbox } from "../agent/sandbox/sandbox-policy.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { loadSplits } from "../config/split-overlap.js";
import { limitTasks } from "../eval/limit-tasks.js";
import { loadHarness } from "../harness/load-harness.js";

/** What an evolve run starts from, read and decided before its journal is written. */
export type RunInputs = Awaited<ReturnType<typeof loadInputs>>;

/**
 * The seed harness and both task splits of a config (checked disjoint): `splits` whole, for the
 * guard and the held-out seal; `train` and `heldout` within `limit`, for the run; and the
 * sandbox its command-harness candidates run in (`decideSandbox`), refused here when missing.
 */
export async function loadInputs(
  loaded: LoadedConfig,
  options: { limit?: number; env?: NodeJS.ProcessEnv },
) {
  const { limit } = options;
  const { config } = loaded;
  const seed = await loadHarness({
    dir: path.resolve(loaded.root, config.harness.dir),
    kind: config.harness.kind,
    command: config.harness.command,
  });
  const splits = await loadSplits(loaded);
  const train = limitTasks(splits.train, limit);
  const heldout = limitTasks(splits.heldout, limit);
  // Before any rollout: every candidate after the seed is code the Editor wrote.
  const untrusted = "evolve runs LLM-edited candidates";
  const sandbox = await decideSandbox({ loaded, untrusted, env: options.env });
  return { seed, splits, train, heldout, sandbox };
}
