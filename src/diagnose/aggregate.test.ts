import { describe, expect, it } from "vitest";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { aggregateFailures, groupEvidence, suspectedModule } from "./aggregate.js";
import { type Evidence, extractBatchEvidence } from "./evidence.js";
import { patternId } from "./failure-pattern.js";
import { evidenceOf, json, makeRecord, makeTask } from "./testing/rollout-fixtures.js";

type Group = { key: string; signals: string[]; size: number; categories: string[] };

/** Six step-limit failures over three categories, three tool-error failures, one no-answer. */
function fixture() {
  const categories = ["math", "geo", "bio"];
  const tasks = Array.from({ length: 10 }, (_, index) =>
    makeTask(`t${index}`, { category: categories[index % 3] }),
  );
  const records = tasks.map((task, index) =>
    index < 6
      ? makeRecord({
          taskId: task.id,
          category: task.category,
          events: ["step-limit"],
          answer: null,
          reason: "no-answer",
        })
      : index < 9
        ? makeRecord({ taskId: task.id, category: task.category, events: ["tool-error"] })
        : makeRecord({
            taskId: task.id,
            category: task.category,
            answer: null,
            reason: "no-answer",
            output: "hmm",
          }),
  );
  const evidence = extractBatchEvidence({ records, tasks }).map(
    (item): Evidence => ({
      ...item,
      cause: item.signals.includes("step-limit") ? "step-budget-exhausted" : "unexplained",
    }),
  );
  return { tasks, records, evidence };
}

function groupsOf(request: ChatRequest): Group[] {
  return evidenceOf(request).groups as Group[];
}

describe("groupEvidence", () => {
  it("groups by signal key and cause, largest first", () => {
    const groups = groupEvidence(fixture().evidence);
    expect(groups.map((group) => [group.key, group.members.length])).toEqual([
      ["g1", 6],
      ["g2", 3],
      ["g3", 1],
    ]);
    expect(groups[0].groupKey).toBe("no-answer+no-tool-calls+step-limit|step-budget-exhausted");
  });
});

describe("aggregateFailures", () => {
  it("makes one pattern_merge call and applies the merge", async () => {
    const { tasks, records, evidence } = fixture();
    const provider = new ScriptedProvider(() =>
      json({
        patterns: [
          {
            name: "Budget Exhausted",
            description: "multi-hop tasks run out of steps",
            groupKeys: ["g1", "g3"],
            module: "agent_loop",
          },
          {
            name: "tool-errors",
            description: "calculator errors",
            groupKeys: ["g2"],
            module: "observation",
          },
        ],
      }),
    );
    const { patterns, merged } = await aggregateFailures({
      evidence,
      records,
      tasks,
      refiner: provider,
    });
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0].jsonSchema?.name).toBe("pattern_merge");
    expect(groupsOf(provider.calls[0]).map((group) => group.size)).toEqual([6, 3, 1]);
    expect(merged).toBe(true);
    expect(
      patterns.map((pattern) => [
        pattern.name,
        pattern.module,
        pattern.memberKeys.length,
        pattern.namedBy,
      ]),
    ).toEqual([
      ["budget-exhausted", "agent_loop", 7, "llm"],
      ["tool-errors", "observation", 3, "llm"],
    ]);
    expect(patterns[0].support).toEqual({
      tasks: 7,
      categories: 3,
      categoryNames: ["bio", "geo", "math"],
    });
    expect(patterns[0].id).toBe(patternId([...patterns[0].memberKeys].reverse()));
  });

  it("keeps a group the model leaves out as its own pattern and gives a doubly claimed group to the first", async () => {
    const { tasks, records, evidence } = fixture();
    const provider = new ScriptedProvider(() =>
      json({
        patterns: [
          { name: "a", description: "first", groupKeys: ["g1", "g9"], module: "agent_loop" },
          { name: "b", description: "second", groupKeys: ["g1", "g2"], module: "nonsense-module" },
          { name: "c", description: "only unknown keys", groupKeys: ["g42"], module: "prompt" },
        ],
      }),
    );
    const { patterns } = await aggregateFailures({ evidence, records, tasks, refiner: provider });
    expect(patterns.map((pattern) => [pattern.name, pattern.memberKeys.length])).toEqual([
      ["a", 6],
      ["b", 3],
      ["no-answer-no-tool-calls", 1],
    ]);
    // An unknown module name falls back to the one the signals point at.
    expect(patterns[1].module).toBe("observation");
    expect(patterns[2].namedBy).toBe("fallback");
    const allMembers = patterns.flatMap((pattern) => pattern.memberKeys);
    expect(new Set(allMembers).size).toBe(allMembers.length);
    expect(allMembers).toHaveLength(10);
  });

  it("falls back to deterministic names from signal keys after bounded repairs of garbage", async () => {
    const { tasks, records, evidence } = fixture();
    const provider = new ScriptedProvider(() => json({ clusters: "everything is one pattern" }));
    const { patterns, merged } = await aggregateFailures({
      evidence,
      records,
      tasks,
      refiner: provider,
    });
    expect(provider.calls).toHaveLength(3);
    expect(merged).toBe(false);
    expect(patterns.map((pattern) => pattern.name)).toEqual([
      "no-answer-no-tool-calls-step-limit-step-budget-exhausted",
      "no-tool-calls-numeric-mismatch-tool-error-wrong-answer",
      "no-answer-no-tool-calls",
    ]);
    expect(patterns.map((pattern) => pattern.module)).toEqual([
      "agent_loop",
      "observation",
      "completion",
    ]);
    expect(patterns.every((pattern) => pattern.namedBy === "fallback")).toBe(true);
  });

  it("spreads up to five examples over categories", async () => {
    const { tasks, records, evidence } = fixture();
    const provider = new ScriptedProvider(() => json({ patterns: [] }));
    const { patterns } = await aggregateFailures({ evidence, records, tasks, refiner: provider });
    const examples = patterns[0].examples;
    expect(examples).toHaveLength(5);
    expect(new Set(examples.slice(0, 3).map((example) => example.category)).size).toBe(3);
    expect(new Set(examples.map((example) => example.taskId)).size).toBe(5);
  });

  it("makes no call when nothing failed", async () => {
    const provider = new ScriptedProvider(() => undefined);
    const result = await aggregateFailures({
      evidence: [],
      records: [],
      tasks: [],
      refiner: provider,
    });
    expect(result.patterns).toEqual([]);
    expect(provider.calls).toHaveLength(0);
  });
});

describe("suspectedModule", () => {
  it("maps signals to the harness module at fault", () => {
    expect(suspectedModule(["context-overflow", "task-dropped"])).toBe("context");
    expect(suspectedModule(["step-limit"])).toBe("agent_loop");
    expect(suspectedModule(["tool-error"])).toBe("observation");
    expect(suspectedModule(["no-answer"])).toBe("completion");
    expect(suspectedModule(["numeric-mismatch", "no-tool-calls", "wrong-answer"])).toBe("tools");
    expect(suspectedModule(["wrong-answer"])).toBe("prompt");
  });
});
