import { describe, expect, it } from "vitest";
import { createProgress } from "./progress.js";

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 100, write: (text: string) => chunks.push(text) } };
}

describe("createProgress", () => {
  it("prints plain lines every 10% when not a TTY", () => {
    const { chunks, stream } = sink(false);
    const progress = createProgress({ stream, env: {} });
    progress.start("train", 20);
    for (let done = 1; done <= 20; done += 1) progress.tick(done, Math.floor(done / 2));
    progress.end();
    expect(chunks[0]).toBe("train: 0/20 rollouts\n");
    expect(chunks).toHaveLength(11);
    expect(chunks.at(-1)).toBe("train: 20/20 rollouts (100%), 10 passed\n");
    expect(chunks.every((chunk) => !chunk.includes("\r"))).toBe(true);
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
