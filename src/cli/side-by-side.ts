import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** The seeds dealt out to `count` processes in turn (every count-th seed), empty shares dropped. */
export function seedShares(seeds: readonly number[], count: number): number[][] {
  return Array.from({ length: count }, (_, job) =>
    seeds.filter((_seed, index) => index % count === job),
  ).filter((share) => share.length > 0);
}

/**
 * Runs one process per share side by side — `command` followed by `argsFor(share)` — and waits
 * for all of them; every line they print goes to `onLine`, prefixed with the share's seeds.
 * Returns each process's exit code (a process killed by a signal counts as 1).
 */
export async function runShares(options: {
  command: readonly string[];
  shares: number[][];
  argsFor: (share: number[]) => string[];
  onLine: (line: string) => void;
}): Promise<number[]> {
  const [file, ...prefix] = options.command;
  return Promise.all(
    options.shares.map(
      (share) =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(file, [...prefix, ...options.argsFor(share)], {
            stdio: ["ignore", "pipe", "pipe"],
          });
          const tag = `[seeds ${share.join(",")}] `;
          for (const stream of [child.stdout, child.stderr])
            createInterface({ input: stream }).on("line", (line) => options.onLine(tag + line));
          child.on("error", reject);
          child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
        }),
    ),
  );
}
