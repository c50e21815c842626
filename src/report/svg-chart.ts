import type { AccuracyPoint } from "./accuracy-series.js";

/** An inline SVG line chart of accuracy (0–100%) per iteration; no scripts, no external resources. */
export function svgAccuracyChart(
  points: AccuracyPoint[],
  options: { width?: number; height?: number } = {},
): string {
  const width = options.width ?? 560;
  const height = options.height ?? 240;
  const margin = { left: 44, right: 16, top: 16, bottom: 32 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const maxIteration = Math.max(1, ...points.map((point) => point.iteration));
  const x = (iteration: number): number => margin.left + (iteration / maxIteration) * plotWidth;
  const y = (accuracy: number): number => margin.top + (1 - accuracy) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (level) =>
        `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(level).toFixed(1)}" y2="${y(level).toFixed(1)}" class="grid"/>` +
        `<text x="${margin.left - 6}" y="${(y(level) + 4).toFixed(1)}" text-anchor="end">${level * 100}%</text>`,
    )
    .join("");
  const ticks = points
    .map(
      (point) =>
        `<text x="${x(point.iteration).toFixed(1)}" y="${height - 10}" text-anchor="middle">${point.iteration}</text>`,
    )
    .join("");
  const path = points
    .map(
      (point, index) =>
        `${index === 0 ? "M" : "L"}${x(point.iteration).toFixed(1)},${y(point.accuracy).toFixed(1)}`,
    )
    .join(" ");
  const dots = points
    .map(
      (point) =>
        `<circle cx="${x(point.iteration).toFixed(1)}" cy="${y(point.accuracy).toFixed(1)}" r="3.5"><title>iteration ${point.iteration}: ${(point.accuracy * 100).toFixed(1)}%</title></circle>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Accuracy per iteration">${grid}${ticks}<path d="${path}" class="line"/>${dots}</svg>`;
}
