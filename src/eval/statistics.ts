/** Wilson score interval (95% by default) of `passes` successes in `n` trials. */
export function wilsonInterval(passes: number, n: number, z = 1.959963984540054): [number, number] {
  if (n === 0) return [0, 0];
  const p = passes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Majority vote of samples: a task passes when strictly more than half its samples pass. */
export function majorityPass(passes: number, samples: number): boolean {
  return passes * 2 > samples;
}

/** A p-value as reports print it: `p = 0.0195`, and `p < 0.0001` when four decimals would show 0.0000. */
export function formatPValue(p: number): string {
  return p < 0.00005 ? "p < 0.0001" : `p = ${p.toFixed(4)}`;
}
