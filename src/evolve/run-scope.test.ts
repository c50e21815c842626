import { describe, expect, it } from "vitest";
import { createRng, deriveSeed } from "./rng.js";
import { namedStream, type StrategyScope, strategyScope } from "./run-scope.js";
import { strategyByName } from "./strategies/index.js";

const strategies = (["ecdysis", "iterative", "sampling"] as const).map(strategyByName);

describe("strategyScope", () => {
  it("names an iteration's stages under it, a follow-up's under it too, the run-wide ones under the strategy", async () => {
    const ran: string[] = [];
    const scope = strategyScope({
      strategy: "ecdysis",
      streams: {},
      seed: 7,
      stage: (name, run) => {
        ran.push(name);
        return run();
      },
    });
    const third = scope.iteration(3);
    expect(third.key("diagnose")).toBe("iteration-3/diagnose");
    expect(third.within("repair").key("refine")).toBe("iteration-3/repair/refine");
    expect(await third.within("repair").stage("batch", async () => 1)).toBe(1);
    expect(await scope.stage("evaluate-seed", async () => 2)).toBe(2);
    expect(ran).toEqual(["iteration-3/repair/batch", "ecdysis/evaluate-seed"]);
  });

  it("draws each stream from its declared path, the same for a follow-up, and refuses an undeclared one", () => {
    const scope = strategyScope({
      strategy: "ecdysis",
      streams: { batch: (iteration) => [iteration, 1] },
      seed: 7,
      stage: (_name, run) => run(),
    });
    const draw = (rng: { next(): number }) => [rng.next(), rng.next()];
    const expected = draw(createRng(deriveSeed(7, 3, 1)));
    expect(draw(scope.iteration(3).rng("batch"))).toEqual(expected);
    expect(draw(scope.iteration(3).within("repair").rng("batch"))).toEqual(expected);
    expect(draw(scope.rng("batch", 3))).toEqual(expected);
    // The names are types for a strategy's own code; a scope seen as any strategy's checks at run time.
    const untyped: StrategyScope = scope;
    expect(() => untyped.iteration(3).rng("regression-sample")).toThrow(
      "ecdysis: no random stream 'regression-sample' is declared",
    );
  });

  it("never gives two streams of one strategy the same path (a clash would replay the wrong draw)", () => {
    for (const strategy of strategies) {
      const seen = new Map<string, string>();
      for (const [name, path] of Object.entries(strategy.streams))
        for (let part = 0; part <= 2000; part++) {
          const key = path(part).join(",");
          const earlier = seen.get(key);
          expect(earlier, `${strategy.name}: ${name}(${part}) is ${earlier}`).toBeUndefined();
          seen.set(key, `${name}(${part})`);
        }
    }
  });

  it("keeps the built-in strategies' streams where they were first numbered", () => {
    const [ecdysis, iterative] = strategies;
    expect([ecdysis.streams.batch(4), ecdysis.streams["regression-sample"](4)]).toEqual([
      [4, 1],
      [4, 2],
    ]);
    expect([iterative.streams.parent(4), iterative.streams.epoch(2)]).toEqual([
      [41, 4],
      [42, 2],
    ]);
  });

  it("gives a new stream a path of its own name", () => {
    expect(namedStream("fresh-batch")(3)).toEqual(namedStream("fresh-batch")(3));
    expect(namedStream("fresh-batch")(3)).not.toEqual(namedStream("merge-pair")(3));
    expect(namedStream("fresh-batch")(3)[1]).toBe(3);
  });
});
