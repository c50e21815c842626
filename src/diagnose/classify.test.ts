import { describe, expect, it } from "vitest";
import type { RolloutRecord } from "../eval/types.js";
import { classifyPatterns, settled } from "./classify.js";
import type { UnclassifiedPattern } from "./failure-pattern.js";
import { makeRecord } from "./testing/rollout-fixtures.js";

function pattern(name: string, members: RolloutRecord[]): UnclassifiedPattern {
  const categoryNames = [...new Set(members.map((member) => member.category))].sort();
  const taskIds = [...new Set(members.map((member) => member.taskId))].sort();
  return {
    id: `p-${name}`,
    name,
    description: name,
    module: "prompt",
    namedBy: "fallback",
    groupKeys: [name],
    signals: ["wrong-answer"],
    causes: ["unexplained"],
    memberKeys: members.map((member) => member.key),
    taskIds,
    support: { tasks: taskIds.length, categories: categoryNames.length, categoryNames },
    examples: [],
  };
}

function members(prefix: string, n: number, categories = ["a", "b", "c"]): RolloutRecord[] {
  return Array.from({ length: n }, (_, index) =>
    makeRecord({ taskId: `${prefix}${index}`, category: categories[index % categories.length] }),
  );
}

/** A re-run double: re-runs each record k times with new sample indices; `passes` decides the verdict. */
function rerunner(passes: (taskId: string, sampleIndex: number) => boolean, model = "agent") {
  const calls: { records: RolloutRecord[]; k: number }[] = [];
  const run = async (records: RolloutRecord[], k = 1) => {
    calls.push({ records, k });
    return records.flatMap((record) =>
      Array.from({ length: k }, (_, offset) => {
        const sampleIndex = record.sampleIndex + offset + 1;
        const pass = passes(record.taskId, sampleIndex);
        return makeRecord({
          taskId: record.taskId,
          key: `${record.key}-r${sampleIndex}-${model}`,
          sampleIndex,
          pass,
          model,
        });
      }),
    );
  };
  return { run, calls };
}

const minSupport = { tasks: 3, categories: 2 };

describe("classifyPatterns", () => {
  it("calls a one-task pattern a singleton and a small one narrow", async () => {
    const single = members("s", 1);
    const few = members("n", 2);
    const oneCategory = members("o", 4, ["a"]);
    const result = await classifyPatterns({
      patterns: [
        pattern("single", single),
        pattern("few", few),
        pattern("one-category", oneCategory),
      ],
      records: [...single, ...few, ...oneCategory],
      minSupport,
    });
    expect(result.map((item) => [item.kind, item.reasons[0].code])).toEqual([
      ["model-specific", "singleton"],
      ["model-specific", "narrow"],
      ["model-specific", "narrow"],
    ]);
  });

  it("writes its reasons with singular and plural counts", async () => {
    const one = members("x", 3, ["a"]);
    const result = await classifyPatterns({
      patterns: [pattern("one", one)],
      records: one,
      minSupport: { tasks: 3, categories: 1 },
      resample: rerunner(() => false).run,
    });
    expect(result[0].reasons.map((reason) => reason.detail)).toEqual([
      "3 tasks across 1 category",
      "3 of 3 failing tasks failed again when re-sampled",
    ]);
    const narrow = await classifyPatterns({
      patterns: [pattern("o", members("o", 4, ["a"]))],
      records: members("o", 4, ["a"]),
      minSupport,
    });
    expect(narrow[0].reasons[0].detail).toBe("1 category (minimum 2)");
  });

  it("calls a pattern whose failures vanish on re-sampling flaky, and keeps a reproducible one systematic", async () => {
    const flaky = members("f", 4);
    const stable = members("r", 4);
    const resample = rerunner((taskId) => taskId.startsWith("f"));
    const result = await classifyPatterns({
      patterns: [pattern("flaky", flaky), pattern("stable", stable)],
      records: [...flaky, ...stable],
      minSupport,
      resample: resample.run,
      resamples: 2,
    });
    expect(resample.calls).toHaveLength(1);
    expect(resample.calls[0].k).toBe(2);
    expect(resample.calls[0].records).toHaveLength(8);
    expect(result[0]).toMatchObject({
      kind: "model-specific",
      reproducibility: { members: 4, vanished: 4, resamples: 2 },
    });
    expect(result[0].reasons.map((reason) => reason.code)).toEqual(["supported", "flaky"]);
    expect(result[1]).toMatchObject({
      kind: "systematic",
      reproducibility: { members: 4, vanished: 0 },
    });
    expect(result[1].reasons.map((reason) => reason.code)).toEqual(["supported", "reproducible"]);
  });

  it("keeps a pattern systematic when only a minority vanishes", async () => {
    const recs = members("m", 4);
    const resample = rerunner((taskId) => taskId === "m0");
    const [result] = await classifyPatterns({
      patterns: [pattern("m", recs)],
      records: recs,
      minSupport,
      resample: resample.run,
    });
    expect(result.kind).toBe("systematic");
  });

  it("calls a pattern the probe model passes model-only, and one it fails too systematic", async () => {
    const only = members("x", 3);
    const shared = members("y", 3);
    const probe = rerunner((taskId) => taskId.startsWith("x"), "probe-model");
    const result = await classifyPatterns({
      patterns: [pattern("only", only), pattern("shared", shared)],
      records: [...only, ...shared],
      minSupport,
      probe: (records) => probe.run(records),
    });
    expect(result[0]).toMatchObject({
      kind: "model-specific",
      probe: { tasks: 3, passed: 3, model: "probe-model" },
    });
    expect(result[0].reasons.at(-1)?.code).toBe("model-only");
    expect(result[1].kind).toBe("systematic");
    expect(result[1].reasons.at(-1)?.code).toBe("probe-fails");
  });

  it("re-runs nothing for patterns already below the support minimum", async () => {
    const single = members("s", 1);
    const resample = rerunner(() => true);
    const probe = rerunner(() => true);
    await classifyPatterns({
      patterns: [pattern("single", single)],
      records: single,
      minSupport,
      resample: resample.run,
      probe: (records) => probe.run(records),
    });
    expect(resample.calls).toHaveLength(0);
    expect(probe.calls).toHaveLength(0);
  });

  it("probes only patterns that survived re-sampling", async () => {
    const flaky = members("f", 3);
    const stable = members("r", 3);
    const resample = rerunner((taskId) => taskId.startsWith("f"));
    const probe = rerunner(() => false);
    await classifyPatterns({
      patterns: [pattern("flaky", flaky), pattern("stable", stable)],
      records: [...flaky, ...stable],
      minSupport,
      resample: resample.run,
      probe: (records) => probe.run(records),
    });
    expect(probe.calls[0].records.map((record) => record.taskId)).toEqual(["r0", "r1", "r2"]);
  });
});

describe("settled (the first wave of re-samples decides a pattern)", () => {
  it("settles only when the tasks not yet re-run could not turn the flaky verdict", () => {
    // 2 of 2 failed again, 2 to go: at most 2 of 4 pass, not a majority → reproducible.
    expect(settled(2, 0, 2)).toBe(true);
    // 1 of 2 passed, 2 to go: 3 of 4 could pass → undecided.
    expect(settled(2, 1, 2)).toBe(false);
    // 3 of 3 passed, 2 to go: at least 3 of 5 pass → flaky.
    expect(settled(3, 3, 2)).toBe(true);
    // 2 of 3 failed again, 3 to go: 4 of 6 could pass → undecided.
    expect(settled(3, 1, 3)).toBe(false);
    // Nothing left to run: always settled.
    expect(settled(1, 1, 0)).toBe(true);
    expect(settled(0, 0, 0)).toBe(true);
  });
});
