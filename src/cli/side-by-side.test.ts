import { describe, expect, it } from "vitest";
import { runShares, seedShares } from "./side-by-side.js";

describe("seedShares", () => {
  it("deals the seeds out in turn and drops empty shares", () => {
    expect(seedShares([1, 2, 3, 4, 5], 2)).toEqual([
      [1, 3, 5],
      [2, 4],
    ]);
    expect(seedShares([7], 3)).toEqual([[7]]);
  });
});

describe("runShares", () => {
  it("runs one process per share side by side, tags their lines and returns their exit codes", async () => {
    const lines: string[] = [];
    const codes = await runShares({
      command: [
        process.execPath,
        "-e",
        "const s = process.argv[1]; console.log('share ' + s); console.error('err ' + s); process.exit(s === '2' ? 3 : 0)",
      ],
      shares: [[1], [2]],
      argsFor: (share) => [share.join(",")],
      onLine: (line) => lines.push(line),
    });
    expect(codes).toEqual([0, 3]);
    expect([...lines].sort()).toEqual([
      "[seeds 1] err 1",
      "[seeds 1] share 1",
      "[seeds 2] err 2",
      "[seeds 2] share 2",
    ]);
  });
});
