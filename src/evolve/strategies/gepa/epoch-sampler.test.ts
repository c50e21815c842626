import { describe, expect, it } from "vitest";
import { createRng, deriveSeed } from "../../rng.js";
import { epochOrder, minibatchAt, minibatchesPerEpoch } from "./epoch-sampler.js";

const ids = ["a", "b", "c", "d", "e", "f", "g"];
const rngOfEpoch = (epoch: number) => createRng(deriveSeed(7, epoch));

describe("epoch-shuffled sampler (GEPA's EpochShuffledBatchSampler)", () => {
  it("pads an epoch to whole minibatches with the ids shuffled last, once each", () => {
    const order = epochOrder(ids, 3, createRng(1));
    expect(order).toHaveLength(9);
    expect(new Set(order.slice(0, 7))).toEqual(new Set(ids));
    // The two padding ids are the last two of the shuffle, the very last first.
    expect(order.slice(7)).toEqual([order[6], order[5]]);
    // A train set smaller than a minibatch repeats its ids.
    expect(epochOrder(["x"], 3, createRng(1))).toEqual(["x", "x", "x"]);
  });

  it("covers every train id once per epoch before any repeats, in a new order each epoch", () => {
    const perEpoch = minibatchesPerEpoch(ids.length, 3);
    expect(perEpoch).toBe(3);
    const draws = Array.from({ length: perEpoch * 2 }, (_, draw) =>
      minibatchAt({ ids, size: 3, draw, rngOfEpoch }),
    );
    for (const batch of draws) expect(batch).toHaveLength(3);
    const first = draws.slice(0, perEpoch).flat();
    const second = draws.slice(perEpoch).flat();
    expect(new Set(first)).toEqual(new Set(ids));
    expect(new Set(second)).toEqual(new Set(ids));
    expect(first).not.toEqual(second);
  });

  it("is a function of the draw number: the same draw gives the same minibatch (resume)", () => {
    const again = minibatchAt({ ids, size: 3, draw: 4, rngOfEpoch });
    expect(minibatchAt({ ids, size: 3, draw: 4, rngOfEpoch })).toEqual(again);
    expect(() => minibatchAt({ ids: [], size: 3, draw: 0, rngOfEpoch })).toThrow(/no train ids/);
  });
});
