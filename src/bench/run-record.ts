import { createHash } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { SharedRunSettings } from "./engine.js";
import type { PlannedRun } from "./run-plan.js";
import { type BenchRun, type BenchWorld, benchCodeSchema, benchRunSchema } from "./types.js";

/** The file a finished run's scored figures are kept in, inside the run's folder. */
const runRecordFile = "bench-run.json";

/**
 * The code a run was made with: the Ecdysis version, the checkout's commit (undefined outside a
 * git checkout), whether it had uncommitted changes and, when it did, their name
 * (config/git-changes.ts): a run on uncommitted changes is reused only under the same changes —
 * the processes `--jobs` starts, a resumed bench — and never when they could not be named.
 */
export type BenchCode = z.infer<typeof benchCodeSchema>;

const runRecordSchema = z.object({
  format: z.literal(1),
  key: z.string(),
  code: benchCodeSchema,
  run: benchRunSchema,
});

/**
 * Everything a run's figures depend on, hashed: the world, seed, arm, refiner and budget, the
 * shared settings, the probe tasks and the code (version and commit). A finished run is reused
 * by `--resume` only under the same key, so a resumed bench is the bench it claims to be.
 */
export function runRecordKey(parts: {
  world: BenchWorld;
  seed: number;
  plan: PlannedRun;
  settings: SharedRunSettings;
  probeTaskIds: string[];
  code: BenchCode;
}): string {
  const { world, seed, plan, settings, probeTaskIds, code } = parts;
  const canonical = JSON.stringify({
    world,
    seed,
    plan: [plan.strategy, plan.refiner, plan.budgetEvals],
    settings: [
      settings.budgetRollouts,
      settings.latencyScale ?? null,
      settings.concurrency,
      settings.maxIterations,
      settings.temperature,
    ],
    probeTaskIds,
    code: [code.version, code.commit ?? null, ...(code.dirty ? [code.changes ?? null] : [])],
  });
  return createHash("sha256").update(canonical).digest("hex");
}

/** Whether runs made with this code may be reused later (a named commit, its changes named). */
export function reusableCode(code: BenchCode): boolean {
  return code.commit !== undefined && (!code.dirty || code.changes !== undefined);
}

/**
 * The finished run recorded in `runDir` under `key`, or undefined when there is none, it was
 * made under another key, or it cannot be read (then the run is simply made again: nothing is
 * lost, the record is only a cache of a deterministic-in-inputs measurement).
 */
export async function readRunRecord(runDir: string, key: string): Promise<BenchRun | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(runDir, runRecordFile), "utf8");
  } catch {
    return undefined;
  }
  try {
    const record = runRecordSchema.safeParse(JSON.parse(text));
    if (!record.success || record.data.key !== key) return undefined;
    return record.data.run;
  } catch {
    return undefined;
  }
}

/** Records a finished run (written whole or not at all). */
export async function writeRunRecord(
  runDir: string,
  record: { key: string; code: BenchCode; run: BenchRun },
): Promise<void> {
  const file = path.join(runDir, runRecordFile);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ format: 1, ...record }, null, 2)}\n`);
  await rename(temporary, file);
}
