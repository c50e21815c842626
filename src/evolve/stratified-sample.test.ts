import { describe, expect, it } from "vitest";
import { createRng } from "./rng.js";
import { stratifiedSample } from "./stratified-sample.js";

const items = [...Array(30).keys()].map((index) => ({
  id: index,
  category: index < 20 ? "a" : "b",
}));

describe("stratifiedSample", () => {
  it("keeps category proportions and is reproducible from the seed", () => {
    const draw = (seed: number) =>
      stratifiedSample({ items, size: 9, category: (item) => item.category, rng: createRng(seed) });
    const sample = draw(7);
    expect(sample).toHaveLength(9);
    expect(sample.filter((item) => item.category === "a")).toHaveLength(6);
    expect(draw(7)).toEqual(sample);
    expect(draw(8)).not.toEqual(sample);
  });

  it("returns everything when the population is small", () => {
    expect(
      stratifiedSample({ items, size: 50, category: (item) => item.category, rng: createRng(1) }),
    ).toEqual(items);
  });
});
