import type { AccuracyPoint } from "./accuracy-series.js";
import { escapeHtml } from "./html.js";

/** What the chart marks besides the batch line. */
export interface ChartMarks {
  /** Held-out accuracy of the seed (drawn at iteration 0) and of the final harness (at the last iteration). */
  heldout?: { seed: number; final: number };
  /** Iterations whose proposal was accepted, with a one-line label of their edits (tooltip). */
  accepted?: { iteration: number; label: string }[];
}

const margin = { left: 56, right: 190, top: 16, bottom: 46 };

/**
 * An inline SVG line chart of batch accuracy (0–100%) per iteration, with axis titles, the
 * held-out accuracy of the seed and final harnesses as their own points, and a dashed marker at
 * each accepted proposal; no scripts, no external resources, every label escaped.
 */
export function svgAccuracyChart(
  points: AccuracyPoint[],
  options: ChartMarks & { width?: number; height?: number } = {},
): string {
  const width = options.width ?? 760;
  const height = options.height ?? 280;
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const maxIteration = Math.max(1, ...points.map((point) => point.iteration));
  const x = (iteration: number): number => margin.left + (iteration / maxIteration) * plotWidth;
  const y = (accuracy: number): number => margin.top + (1 - accuracy) * plotHeight;
  const f = (value: number) => value.toFixed(1);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (level) =>
        `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${f(y(level))}" y2="${f(y(level))}" class="grid"/>` +
        `<text x="${margin.left - 6}" y="${f(y(level) + 4)}" text-anchor="end">${level * 100}%</text>`,
    )
    .join("");
  const ticks = points
    .map(
      (point) =>
        `<text x="${f(x(point.iteration))}" y="${margin.top + plotHeight + 16}" text-anchor="middle">${point.iteration}</text>`,
    )
    .join("");
  const titles =
    `<text class="axis-title" x="${f(margin.left + plotWidth / 2)}" y="${height - 6}" text-anchor="middle">iteration (0 = seed harness)</text>` +
    `<text class="axis-title" transform="translate(14 ${f(margin.top + plotHeight / 2)}) rotate(-90)" text-anchor="middle">accuracy</text>`;
  const accepted = (options.accepted ?? [])
    .map(
      (mark) =>
        `<g class="accepted-mark"><line x1="${f(x(mark.iteration))}" x2="${f(x(mark.iteration))}" y1="${margin.top}" y2="${margin.top + plotHeight}"/><path d="M${f(x(mark.iteration) - 5)},${margin.top} h10 l-5,8 z"/><title>iteration ${mark.iteration}: accepted — ${escapeHtml(mark.label)}</title></g>`,
    )
    .join("");
  const path = points
    .map(
      (point, index) =>
        `${index === 0 ? "M" : "L"}${f(x(point.iteration))},${f(y(point.accuracy))}`,
    )
    .join(" ");
  const dots = points
    .map(
      (point) =>
        `<circle class="batch" cx="${f(x(point.iteration))}" cy="${f(y(point.accuracy))}" r="3.5"><title>iteration ${point.iteration}: ${(point.accuracy * 100).toFixed(1)}% on its batch</title></circle>`,
    )
    .join("");
  const heldout = options.heldout
    ? [
        { iteration: 0, accuracy: options.heldout.seed, who: "seed" },
        { iteration: maxIteration, accuracy: options.heldout.final, who: "final" },
      ]
        .map(
          (point) =>
            `<rect class="heldout" x="${f(x(point.iteration) - 5)}" y="${f(y(point.accuracy) - 5)}" width="10" height="10"><title>held-out, ${point.who} harness: ${(point.accuracy * 100).toFixed(1)}%</title></rect>`,
        )
        .join("")
    : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Accuracy per iteration">${grid}${ticks}${titles}${accepted}<path d="${path}" class="line"/>${dots}${heldout}${legend(width, options)}</svg>`;
}

function legend(width: number, options: ChartMarks): string {
  const left = width - margin.right + 16;
  const rows = [
    `<line x1="${left}" x2="${left + 18}" y1="24" y2="24" class="line"/><circle class="batch" cx="${left + 9}" cy="24" r="3.5"/><text x="${left + 24}" y="28">train batch</text>`,
    options.heldout
      ? `<rect class="heldout" x="${left + 4}" y="39" width="10" height="10"/><text x="${left + 24}" y="48">held-out (seed, final)</text>`
      : "",
    (options.accepted ?? []).length > 0
      ? `<g class="accepted-mark"><line x1="${left + 9}" x2="${left + 9}" y1="58" y2="74"/></g><text x="${left + 24}" y="70">accepted proposal</text>`
      : "",
  ];
  return `<g class="legend">${rows.join("")}</g>`;
}
