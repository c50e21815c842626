import { z } from "zod";
import type { GroundTruth } from "./ground-truth.js";
import type { ProbeTrajectory } from "./types.js";

/** Training spend through the end of one iteration (cumulative; iteration 0: before the first). */
export const iterationSpendSchema = z.object({
  iteration: z.number().int(),
  rollouts: z.number().int(),
  llmCalls: z.number().int(),
});
export type IterationSpend = z.infer<typeof iterationSpendSchema>;

/** When a run's harness in force first reached a bar: training wall time, rollouts and LLM calls. */
export const reachSchema = z.object({
  wallMs: z.number(),
  rollouts: z.number().int(),
  llmCalls: z.number().int(),
});
export type Reach = z.infer<typeof reachSchema>;

/**
 * The held-out ceiling of a world × seed, from ground truth: the expected held-out accuracy of
 * the best harness the world allows — every systematic deficiency fixed, nothing item-specific.
 * A held-out task with no model-specific deficiency passes; a prompt-sensitive borderline one
 * counts one half (any prompt redraws it at even odds); an item slip or a per-sample flake of the
 * agent model counts 0 (the sim flips an item slip only for an item-specific hint, an
 * accommodation). So no accommodation-free harness is above it except by the prompt-sensitive
 * items a particular prompt happens to pass. Null when the truth holds no held-out task.
 */
export function heldoutCeiling(truth: GroundTruth): number | null {
  const heldout = [...truth.tasks.values()].filter((task) => task.split === "heldout");
  if (heldout.length === 0) return null;
  const expected = heldout.map((task): number => {
    const specific = task.deficiencies.filter((item) => !item.systematic);
    if (specific.some((item) => item.kind !== "prompt-sensitivity")) return 0;
    return specific.length > 0 ? 0.5 : 1;
  });
  return expected.reduce((sum, value) => sum + value, 0) / heldout.length;
}

/**
 * Held-out tasks a systematic fix would gain, from ground truth: those with a systematic
 * deficiency (latent ones included) and no model-specific one that the ceiling counts as never
 * passing (a prompt-sensitive item still counts). A run that accepted no edit left every one of
 * them failing through its systematic cause. Null when the truth holds no held-out task.
 */
export function heldoutSystematicTasks(truth: GroundTruth): number | null {
  const heldout = [...truth.tasks.values()].filter((task) => task.split === "heldout");
  if (heldout.length === 0) return null;
  return heldout.filter(
    (task) =>
      task.deficiencies.some((item) => item.systematic) &&
      !task.deficiencies.some((item) => !item.systematic && item.kind !== "prompt-sensitivity"),
  ).length;
}

/** Cumulative spend through `iteration` (nothing spent before the first entry: zeros). */
function spendThrough(spent: readonly IterationSpend[], iteration: number) {
  const through = spent.filter((item) => item.iteration <= iteration).at(-1);
  return { rollouts: through?.rollouts ?? 0, llmCalls: through?.llmCalls ?? 0 };
}

/**
 * The probe trajectory with each point's training rollouts and LLM calls through the iteration
 * that made its harness current (what time-to-match counts in those units). Unchanged when the
 * run recorded no spend: a point without spend is never given a made-up 0.
 */
export function probeWithSpend(
  probe: ProbeTrajectory | null,
  spent: readonly IterationSpend[],
): ProbeTrajectory | null {
  if (!probe || spent.length === 0) return probe;
  return {
    ...probe,
    points: probe.points.map((point) => ({ ...point, ...spendThrough(spent, point.iteration) })),
  };
}

/** A run's standing against its world's ceiling: its share, and when it reached 90% and 95% of it. */
export interface CeilingFigures {
  ceiling: number | null;
  ceilingShare: number | null;
  reach90: Reach | null;
  reach95: Reach | null;
}

/**
 * Each run against the ceiling: the final held-out accuracy as a share of it, and the first
 * probe point of the harness in force at or above 90% and 95% of it — its training wall time,
 * and the training rollouts and LLM calls spent through the iteration that made it current.
 */
export function ceilingFigures(options: {
  ceiling: number | null;
  heldoutAccuracy: number;
  probe: ProbeTrajectory | null;
  spent: readonly IterationSpend[];
}): CeilingFigures {
  const { ceiling, probe } = options;
  if (ceiling === null || ceiling <= 0)
    return { ceiling, ceilingShare: null, reach90: null, reach95: null };
  const reach = (share: number): Reach | null => {
    const point = probe?.points.find((item) => item.accuracy >= share * ceiling - 1e-9);
    if (!point) return null;
    return { wallMs: point.elapsedMs, ...spendThrough(options.spent, point.iteration) };
  };
  return {
    ceiling,
    ceilingShare: options.heldoutAccuracy / ceiling,
    reach90: reach(0.9),
    reach95: reach(0.95),
  };
}
