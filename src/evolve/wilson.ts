/** Wilson score interval (95% by default) of a proportion; [0, 1] when n is 0. */
export function wilsonInterval(passes: number, n: number, z = 1.959964): [number, number] {
  if (n <= 0) return [0, 1];
  const p = passes / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
