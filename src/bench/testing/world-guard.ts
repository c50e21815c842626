import { ecdysisConfigSchema, type LoadedConfig } from "../../config/config-schema.js";
import type { Task } from "../../config/task-schema.js";
import { buildGuardContext } from "../../evolve/index.js";
import { guardedFiles } from "../../harness/content-guards.js";
import type { GuardContext } from "../../harness/guard-context.js";
import { loadHarness } from "../../harness/load-harness.js";
import { makeHarnessDir } from "../../harness/testing/harness-fixture.js";
import type { LoadedHarness } from "../../harness/types.js";
import { loadWorld } from "../../sim/index.js";
import { seedHarnessFiles } from "../../sim/seed-harness.js";
import { generateWorld } from "../../sim/task-generation.js";

/** A bundled world's tasks, seed harness and the guard context evolve builds for them. */
export interface WorldGuard {
  name: string;
  seed: number;
  train: Task[];
  heldout: Task[];
  harness: LoadedHarness;
  guard: GuardContext;
}

/**
 * The guard context of bundled world `name` generated with `seed`, as evolve builds it
 * (`buildGuardContext`: train and held-out answers and inputs, label words) with the seed
 * harness's files as the baseline: what bench/general-rules.ts and the guard property tests
 * check edits against. The seed harness is written to a temporary folder.
 */
export async function worldGuard(name: string, seed: number): Promise<WorldGuard> {
  const world = { ...(await loadWorld(name)), seed };
  const generated = generateWorld(world);
  const dir = await makeHarnessDir(seedHarnessFiles(world, generated.knowledge));
  const harness = await loadHarness({ dir, kind: "builtin" });
  const config = ecdysisConfigSchema.parse({
    model: { provider: "sim", world: name, model: "sim-agent" },
    harness: { dir: "harness", editable: ["harness.yaml", "*.md"] },
    tasks: { train: "tasks/train.jsonl", heldout: "tasks/heldout.jsonl" },
  });
  const loaded: LoadedConfig = { config, path: `${dir}/../ecdysis.yml`, root: dir, hash: "h" };
  const base = buildGuardContext({ loaded, train: generated.train, heldout: generated.heldout });
  const guard = { ...base, seedFiles: guardedFiles(harness) };
  return { name, seed, train: generated.train, heldout: generated.heldout, harness, guard };
}
