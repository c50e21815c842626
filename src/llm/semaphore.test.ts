import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Semaphore", () => {
  it("runs at most `limit` tasks at once and serves waiters in order", async () => {
    const semaphore = new Semaphore(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((gate, index) =>
      semaphore.run(async () => {
        started.push(index);
        peak = Math.max(peak, semaphore.inUse);
        await gate.promise;
      }),
    );
    await flush();
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    await flush();
    expect(started).toEqual([0, 1, 2]);
    gates[0].resolve();
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(semaphore.inUse).toBe(0);
  });

  it("releases the slot when a task throws", async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    await expect(semaphore.run(async () => "next")).resolves.toBe("next");
    expect(semaphore.inUse).toBe(0);
  });

  it("refuses a limit below one", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
