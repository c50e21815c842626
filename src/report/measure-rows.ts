import { wilsonInterval } from "../eval/statistics.js";
import type { EvolveResult, MeasureSummary } from "../evolve/result-schema.js";
import { usd } from "./format.js";

/** One row of the per-task spend table: seed versus final harness on one split. */
export interface SpendRow {
  label: string;
  seed: string;
  final: string;
  /** `3.2×`, or `—` when the seed's figure is 0. */
  ratio: string;
}

function ratio(seed: number, final: number): string {
  return seed > 0 ? `${(final / seed).toFixed(1)}×` : "—";
}

/**
 * Tokens and cost per task of the seed and final harnesses on train and held-out (every sample's
 * rollouts, cached or not — the figures the gate shows); empty for a result without `measures`.
 */
export function spendRows(result: Pick<EvolveResult, "measures">): SpendRow[] {
  const measures = result.measures;
  if (!measures) return [];
  return (["train", "heldout"] as const).flatMap((split) => {
    const { seed, final } = measures[split];
    const name = split === "train" ? "train" : "held-out";
    return [
      {
        label: `Tokens per task (${name})`,
        seed: seed.tokensPerTask.toFixed(0),
        final: final.tokensPerTask.toFixed(0),
        ratio: ratio(seed.tokensPerTask, final.tokensPerTask),
      },
      {
        label: `Cost per task (${name})`,
        seed: usd(seed.costPerTask),
        final: usd(final.costPerTask),
        ratio: ratio(seed.costPerTask, final.costPerTask),
      },
    ];
  });
}

/** Passes of one category under one harness, with the 95% Wilson interval. */
export interface CategoryScore {
  passed: number;
  n: number;
  accuracy: number;
  interval: [number, number];
}

function categoryScore(summary: MeasureSummary, category: string): CategoryScore {
  const entry = summary.byCategory[category] ?? { passed: 0, n: 0 };
  return {
    ...entry,
    accuracy: entry.n ? entry.passed / entry.n : 0,
    interval: wilsonInterval(entry.passed, entry.n),
  };
}

/** Held-out accuracy per category, seed versus final, with intervals; empty without `measures`. */
export function heldoutCategoryRows(
  result: Pick<EvolveResult, "measures">,
): { category: string; seed: CategoryScore; final: CategoryScore }[] {
  const heldout = result.measures?.heldout;
  if (!heldout) return [];
  const categories = [
    ...new Set([...Object.keys(heldout.seed.byCategory), ...Object.keys(heldout.final.byCategory)]),
  ].sort();
  return categories.map((category) => ({
    category,
    seed: categoryScore(heldout.seed, category),
    final: categoryScore(heldout.final, category),
  }));
}

/** `6/8 = 75.0% [40.9–92.9]`. */
export function formatCategoryScore(score: CategoryScore): string {
  return `${score.passed}/${score.n} = ${(score.accuracy * 100).toFixed(1)}% [${(score.interval[0] * 100).toFixed(1)}–${(score.interval[1] * 100).toFixed(1)}]`;
}
