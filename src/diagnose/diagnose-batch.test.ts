import { describe, expect, it } from "vitest";
import { GuardError } from "../errors/guard-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { unknownTaskReply } from "../sim/agent-behaviour.js";
import { diagnoseBatch, diagnosisReportSchema, resampledPerSignal } from "./diagnose-batch.js";
import { evidenceOf, json, makeRecord, makeTask } from "./testing/rollout-fixtures.js";

type Failure = { id: string; events: string[] };
type Group = { key: string };

/** A refiner that notes every failure by its events and merges every group into one pattern. */
function refiner() {
  return new ScriptedProvider((request: ChatRequest) => {
    const evidence = evidenceOf(request);
    if (request.jsonSchema?.name === "failure_notes") {
      const notes = (evidence.failures as Failure[]).map((failure) => ({
        id: failure.id,
        note: "ran out of steps",
        cause: failure.events.includes("step-limit") ? "step-budget" : "slip",
      }));
      return json({ notes });
    }
    if (request.jsonSchema?.name === "pattern_merge") {
      const groups = evidence.groups as Group[];
      return json({
        patterns: [
          {
            name: "budget",
            description: "too few steps",
            groupKeys: [groups[0].key],
            module: "agent_loop",
          },
        ],
      });
    }
    return undefined;
  });
}

function batch() {
  const tasks = Array.from({ length: 8 }, (_, index) =>
    makeTask(`t${index}`, { category: index % 2 ? "math" : "geo" }),
  );
  const records = tasks.map((task, index) =>
    makeRecord({
      taskId: task.id,
      category: task.category,
      pass: index >= 6 ? true : undefined,
      events: index < 4 ? ["step-limit"] : [],
    }),
  );
  return { tasks, records };
}

describe("diagnoseBatch with a temperature-0 agent", () => {
  it("does not re-sample (a deterministic model repeats the run) and says why", async () => {
    const { tasks, records } = batch();
    let resampled = 0;
    const report = await diagnoseBatch({
      records,
      tasks,
      refiner: refiner(),
      minSupport: { tasks: 2, categories: 1 },
      resamples: 2,
      agentTemperature: 0,
      resample: async (failing) => {
        resampled += failing.length;
        return [];
      },
    });
    expect(resampled).toBe(0);
    const supported = report.patterns.find((pattern) => pattern.kind === "systematic");
    expect(supported?.reasons).toContainEqual({
      code: "untested",
      detail: expect.stringMatching(/temperature 0/),
    });
    expect(supported?.reproducibility).toBeUndefined();
  });
});

describe("diagnoseBatch", () => {
  it("re-samples the failing tasks while the notes and merge calls run, and classifies from those re-runs", async () => {
    const { tasks, records } = batch();
    const provider = refiner();
    const seen: { taskIds: string[]; refinerCallsBefore: number }[] = [];
    const report = await diagnoseBatch({
      records,
      tasks,
      refiner: provider,
      minSupport: { tasks: 3, categories: 2 },
      resample: async (members, k) => {
        seen.push({
          taskIds: members.map((member) => member.taskId),
          refinerCallsBefore: provider.calls.length,
        });
        // t0 and t1 pass when re-run: 2 of the 4 budget tasks, not a majority (reproducible).
        return members.flatMap((member) =>
          Array.from({ length: k }, (_, sample) => ({
            ...member,
            key: `${member.key}#${sample + 1}`,
            verdict: { ...member.verdict, pass: ["t0", "t1"].includes(member.taskId) },
          })),
        );
      },
    });
    // The first wave (two per failure signature) is issued before any refiner call; t0 and t1
    // pass, so the budget pattern is undecided and its other two tasks are re-run after the merge.
    expect(seen).toEqual([
      { taskIds: ["t0", "t1", "t4", "t5"], refinerCallsBefore: 0 },
      { taskIds: ["t2", "t3"], refinerCallsBefore: 2 },
    ]);
    const budget = report.patterns.find((pattern) => pattern.name === "budget");
    expect(budget?.kind).toBe("systematic");
    // Only the pattern's own tasks count toward its reproducibility.
    expect(budget?.reproducibility).toEqual({ members: 4, vanished: 2, resamples: 1 });
  });

  it("re-samples at most resampledPerSignal tasks of one failure signature, in batch order", async () => {
    const tasks = Array.from({ length: 7 }, (_, index) => makeTask(`t${index}`));
    const records = tasks.map((task, index) =>
      makeRecord({ taskId: task.id, events: index < 6 ? ["step-limit"] : [] }),
    );
    const asked: string[][] = [];
    await diagnoseBatch({
      records,
      tasks,
      refiner: refiner(),
      minSupport: { tasks: 3, categories: 1 },
      resample: async (members) => {
        asked.push(members.map((member) => member.taskId));
        return [];
      },
    });
    expect(resampledPerSignal).toBe(4);
    // Six step-limit failures: the first four, two in each wave (no re-run came back, so the
    // first left the pattern undecided); the one other signature: its only task.
    expect(asked).toEqual([
      ["t0", "t1", "t6"],
      ["t2", "t3"],
    ]);
  });

  // Issue #27 (speed): every selected task was re-sampled although two failing again out of two
  // already settle a four-task pattern as reproducible: the other two are not re-run.
  it("settles a pattern on the first wave when it cannot turn flaky, and re-runs no more", async () => {
    const { tasks, records } = batch();
    const asked: string[][] = [];
    const report = await diagnoseBatch({
      records,
      tasks,
      refiner: refiner(),
      minSupport: { tasks: 3, categories: 2 },
      resample: async (members) => {
        asked.push(members.map((member) => member.taskId));
        return members.map((member) => ({ ...member, key: `${member.key}#1` }));
      },
    });
    expect(asked).toEqual([["t0", "t1", "t4", "t5"]]);
    const budget = report.patterns.find((pattern) => pattern.name === "budget");
    expect(budget?.kind).toBe("systematic");
    expect(budget?.reproducibility).toEqual({ members: 2, vanished: 0, resamples: 1 });
  });

  it("runs evidence → notes → merge → classification and returns a valid report", async () => {
    const { tasks, records } = batch();
    const provider = refiner();
    const report = await diagnoseBatch({
      records,
      tasks,
      refiner: provider,
      minSupport: { tasks: 3, categories: 2 },
    });
    // Six failures: one notes call for all of them, then one merge.
    expect(provider.calls.map((call) => call.jsonSchema?.name)).toEqual([
      "failure_notes",
      "pattern_merge",
    ]);
    expect(diagnosisReportSchema.parse(report)).toEqual(report);
    expect(report.evidence).toHaveLength(6);
    expect(
      report.patterns.map((pattern) => [pattern.name, pattern.kind, pattern.support.tasks]),
    ).toEqual([
      ["budget", "systematic", 4],
      ["no-tool-calls-numeric-mismatch-wrong-answer-slip", "model-specific", 2],
    ]);
    expect(report.stats).toMatchObject({
      failures: 6,
      groups: 2,
      merged: true,
      systematic: 1,
      modelSpecific: 1,
    });
  });

  it("never makes a harness pattern of tasks the model says it does not know, whatever the notes call them", async () => {
    const tasks = Array.from({ length: 6 }, (_, index) =>
      makeTask(`u${index}`, { category: index % 2 ? "geo" : "history" }),
    );
    const records = tasks.map((task) =>
      makeRecord({
        taskId: task.id,
        category: task.category,
        output: unknownTaskReply,
        answer: null,
        reason: "no-answer",
      }),
    );
    // A refiner that calls it answer-format drift (a harness bug) and merges everything.
    const provider = new ScriptedProvider((request: ChatRequest) => {
      const evidence = evidenceOf(request);
      if (request.jsonSchema?.name === "failure_notes")
        return json({
          notes: (evidence.failures as Failure[]).map((failure) => ({
            id: failure.id,
            note: "no Answer: line",
            cause: "answer-format-drift",
          })),
        });
      const groups = evidence.groups as Group[];
      return json({
        patterns: [
          {
            name: "answer-format-drift",
            description: "no answer line",
            groupKeys: groups.map((group) => group.key),
            module: "completion",
          },
        ],
      });
    });
    const report = await diagnoseBatch({
      records,
      tasks,
      refiner: provider,
      minSupport: { tasks: 3, categories: 1 },
    });
    expect(report.evidence.every((item) => item.signals.includes("unknown-task"))).toBe(true);
    expect(report.evidence.some((item) => item.taskDropped || item.gaveUp)).toBe(false);
    expect(report.patterns).toHaveLength(1);
    expect(report.patterns[0].kind).not.toBe("systematic");
    expect(report.patterns[0].reasons[0]).toEqual({
      code: "unknown-task",
      detail: "the model said it does not know how to do 6 of 6 member runs",
    });
    expect(report.stats?.systematic).toBe(0);
  });

  it("makes no LLM call for a batch without failures", async () => {
    const tasks = [makeTask("a")];
    const provider = new ScriptedProvider(() => undefined);
    const report = await diagnoseBatch({
      records: [makeRecord({ taskId: "a", pass: true })],
      tasks,
      refiner: provider,
      minSupport: { tasks: 1, categories: 1 },
    });
    expect(report.patterns).toEqual([]);
    expect(provider.calls).toHaveLength(0);
  });

  it("refuses held-out records before any call", async () => {
    const { tasks, records } = batch();
    const provider = refiner();
    const heldout = [makeTask("t3")];
    await expect(
      diagnoseBatch({
        records,
        tasks,
        refiner: provider,
        minSupport: { tasks: 1, categories: 1 },
        heldout,
      }),
    ).rejects.toBeInstanceOf(GuardError);
    expect(provider.calls).toHaveLength(0);
  });
});
