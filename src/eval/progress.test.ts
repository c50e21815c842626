import { describe, expect, it } from "vitest";
import { createProgress } from "./progress.js";

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 100, write: (text: string) => chunks.push(text) } };
}

describe("createProgress", () => {
  it("prints start, one line per interval and an end line with accuracy when not a TTY", () => {
    const { chunks, stream } = sink(false);
    let clock = 1_000;
    const progress = createProgress({ stream, env: {}, now: () => clock });
    progress.start("train", 40);
    for (let done = 1; done <= 40; done += 1) {
      clock += 1_000; // one rollout per second: 40 s in all
      progress.tick(done, Math.floor(done / 2));
    }
    progress.end();
    expect(chunks).toEqual([
      "train: 40 rollouts…\n",
      "train: 10/40 rollouts (25%), 5 passed, 10s\n",
      "train: 20/40 rollouts (50%), 10 passed, 20s\n",
      "train: 30/40 rollouts (75%), 15 passed, 30s\n",
      "train: 20/40 passed = 50.0% in 40s\n",
    ]);
  });

  it("prints only two lines for a fast batch and marks a cut-short one", () => {
    const { chunks, stream } = sink(false);
    let clock = 0;
    const progress = createProgress({ stream, env: {}, now: () => clock });
    progress.start("held-out", 10);
    for (let done = 1; done <= 10; done += 1) progress.tick(done, done - 1);
    clock = 1_250;
    progress.end();
    progress.start("again", 4);
    progress.tick(1, 1);
    progress.end();
    progress.end();
    expect(chunks).toEqual([
      "held-out: 10 rollouts…\n",
      "held-out: 9/10 passed = 90.0% in 1.3s\n",
      "again: 4 rollouts…\n",
      "again: 1/1 passed = 100.0% (1/4 ran) in 0.0s\n",
    ]);
  });

  it("uses plain lines in CI even on a TTY", () => {
    const { chunks, stream } = sink(true);
    const progress = createProgress({ stream, env: { CI: "true" } });
    progress.start("x", 2);
    progress.tick(1, 1);
    expect(chunks.every((chunk) => chunk.endsWith("\n"))).toBe(true);
  });

  it("redraws one bar on a TTY and ends the line", () => {
    const { chunks, stream } = sink(true);
    const progress = createProgress({ stream, env: {} });
    progress.start("heldout", 4);
    progress.tick(2, 1);
    progress.end();
    expect(chunks[1]).toMatch(/^\rheldout █+░+ 2\/4 50% · 1 passed/);
    expect(chunks.at(-1)).toBe("\n");
  });
});
