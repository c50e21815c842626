import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { evaluate } from "./evaluate.js";
import { mergeEvalResults, mergeRecords } from "./merge-results.js";
import { RolloutCache } from "./rollout-cache.js";
import { exactScorer } from "./scorers/exact-scorer.js";
import { parseShard, shardTasks } from "./shard-tasks.js";
import { EchoAgent } from "./testing/echo-agent.js";
import { askedNumber, fakeHarness, numberedTasks } from "./testing/fixtures.js";

const provider = () =>
  new ScriptedProvider((request) => {
    const number = Number(askedNumber(String(request.messages[0].content)));
    return { content: number % 3 === 0 ? "wrong" : String(number) };
  }, "m");

describe("shardTasks", () => {
  it("partitions the tasks deterministically, independent of order", () => {
    const tasks = numberedTasks(40);
    const shards = [0, 1, 2].map((index) => shardTasks(tasks, { index, count: 3 }));
    const ids = shards.flat().map((task) => task.id);
    expect(ids.sort()).toEqual(tasks.map((task) => task.id).sort());
    expect(shards.every((shard) => shard.length > 5)).toBe(true);
    const reversed = shardTasks([...tasks].reverse(), { index: 1, count: 3 }).map(
      (task) => task.id,
    );
    expect(reversed.sort()).toEqual(shards[1].map((task) => task.id).sort());
  });

  it("parses 1-based I/N and rejects nonsense", () => {
    expect(parseShard("2/4")).toEqual({ index: 1, count: 4 });
    expect(() => parseShard("0/4")).toThrow(InputError);
    expect(() => parseShard("5/4")).toThrow(InputError);
    expect(() => parseShard("two")).toThrow(InputError);
    expect(() => shardTasks([], { index: 3, count: 3 })).toThrow(InputError);
  });

  it("merges shard results into exactly the unsharded result", async () => {
    const tasks = numberedTasks(25);
    const common = {
      harness: fakeHarness(),
      adapter: new EchoAgent(),
      scorer: () => exactScorer(),
      samples: 2,
      concurrency: 4,
      split: "train",
    };
    const whole = await evaluate({ ...common, tasks, provider: provider() });
    const parts = await Promise.all(
      [0, 1, 2].map((index) =>
        evaluate({
          ...common,
          tasks: shardTasks(tasks, { index, count: 3 }),
          provider: provider(),
        }),
      ),
    );
    const merged = mergeEvalResults(parts.map((part) => part.result));
    const withoutWall = (result: typeof merged) => ({
      ...result,
      cost: { ...result.cost, wallMs: 0 },
    });
    expect(withoutWall(merged)).toEqual(withoutWall(whole.result));
    const records = mergeRecords(parts.map((part) => part.records));
    expect(records.map((record) => record.key).sort()).toEqual(
      whole.records.map((record) => record.key).sort(),
    );
    // The union, put in one cache, serves a full rerun without a call.
    const cache = new RolloutCache(await mkdtemp(join(tmpdir(), "ecdysis-merge-")));
    for (const record of records) await cache.put(record);
    const again = provider();
    await evaluate({ ...common, tasks, provider: again, cache });
    expect(again.calls).toHaveLength(0);
  });

  it("refuses overlapping or mismatched shards", async () => {
    const tasks = numberedTasks(4);
    const common = {
      harness: fakeHarness(),
      adapter: new EchoAgent(),
      scorer: () => exactScorer(),
      concurrency: 1,
      split: "train",
    };
    const a = (await evaluate({ ...common, tasks, provider: provider() })).result;
    expect(() => mergeEvalResults([a, a])).toThrow(/more than one shard/);
    expect(() => mergeEvalResults([a, { ...a, tasks: [], model: "other" }])).toThrow(
      /disagree on 'model'/,
    );
    expect(() => mergeEvalResults([])).toThrow(InputError);
  });
});
