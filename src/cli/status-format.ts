/** Pure formatting for the live status (durations, counts, money, bars). */

/** `4.2s`, `42s`, `1m04s`, `1h02m`. */
export function duration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.floor(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** `812`, `12.3k`, `1.23M`. */
export function compactCount(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)}k`;
  return `${(value / 1_000_000).toFixed(2)}M`;
}

/** `$0.0123` under a dollar, `$12.34` above. */
export function money(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}

/** The remaining time of a phase from its pace so far; undefined before the first finished unit. */
export function eta(options: {
  done: number;
  total: number;
  elapsedMs: number;
}): number | undefined {
  const { done, total, elapsedMs } = options;
  if (done <= 0 || done >= total) return undefined;
  return (elapsedMs / done) * (total - done);
}

/** A fixed-width progress bar. */
export function bar(done: number, total: number, width: number): string {
  const filled = total === 0 ? width : Math.min(width, Math.round((done / total) * width));
  return `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
}

/** `skeptic, editor ×2` from running calls by purpose. */
export function runningRoles(running: Map<string, number>): string {
  return [...running]
    .filter(([, count]) => count > 0)
    .map(([purpose, count]) => (count > 1 ? `${purpose} ×${count}` : purpose))
    .join(", ");
}

/** Cuts a line to the terminal width (a wrapped line would break the redraw). */
export function fitWidth(line: string, columns: number): string {
  const chars = [...line];
  return chars.length < columns ? line : `${chars.slice(0, Math.max(1, columns - 2)).join("")}…`;
}
