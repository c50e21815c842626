import type { EvolveResult } from "../evolve/result-schema.js";

/** One point of the accuracy-per-iteration chart. */
export interface AccuracyPoint {
  iteration: number;
  accuracy: number;
}

/**
 * Accuracy of the harness in force after each iteration, on that iteration's batch; point 0 is
 * the first batch under the seed harness (or the baseline train accuracy when nothing ran).
 */
export function accuracySeries(result: EvolveResult): AccuracyPoint[] {
  const first = result.iterations[0];
  const points: AccuracyPoint[] = [
    { iteration: 0, accuracy: first ? first.batch.score.accuracy : result.baseline.train.accuracy },
  ];
  for (const iteration of result.iterations)
    points.push({ iteration: iteration.index, accuracy: iteration.accuracyAfter });
  return points;
}

/** A Mermaid `xychart-beta` of the series. */
export function mermaidAccuracyChart(result: EvolveResult): string {
  const points = accuracySeries(result);
  return [
    "```mermaid",
    "xychart-beta",
    '  title "Accuracy per iteration (batch)"',
    `  x-axis [${points.map((point) => point.iteration).join(", ")}]`,
    '  y-axis "accuracy %" 0 --> 100',
    `  line [${points.map((point) => (point.accuracy * 100).toFixed(1)).join(", ")}]`,
    "```",
  ].join("\n");
}
