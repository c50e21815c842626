import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../agent/types.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { aggregateFailures } from "./aggregate.js";
import { diagnoseBatch } from "./diagnose-batch.js";
import { type Evidence, extractBatchEvidence } from "./evidence.js";
import { evidenceOf, json, makeRecord, makeTask, step } from "./testing/rollout-fixtures.js";

type Shown = { key: string; causes: string[] };

/** One failure per entry: its cause label, its runtime events, and whether a tool call failed. */
type Failure = { cause: string; events?: AgentEvent["kind"][]; toolError?: boolean };

function batch(failures: Failure[]) {
  const tasks = failures.map((_, index) =>
    makeTask(`t${index}`, { category: "multi-hop", expected: "Paris" }),
  );
  const records = failures.map((failure, index) =>
    makeRecord({
      taskId: tasks[index].id,
      category: "multi-hop",
      events: failure.events,
      ...(failure.events?.includes("step-limit")
        ? { answer: null, reason: "no-answer" }
        : { answer: "Lyon", output: "Answer: Lyon" }),
      steps: failure.toolError
        ? [step([{ name: "lookup", arguments: "{}", result: "bad args", error: true }])]
        : [step()],
    }),
  );
  const evidence = extractBatchEvidence({ records, tasks }).map(
    (item, index): Evidence => ({ ...item, cause: failures[index].cause }),
  );
  return { tasks, records, evidence };
}

/** A merge that keeps every cause label apart, each pointed at the module `modules` gives it. */
function splittingMerge(modules: Record<string, string>) {
  return new ScriptedProvider(mergeReply(modules));
}

function mergeReply(modules: Record<string, string>) {
  return (request: ChatRequest) => {
    const groups = evidenceOf(request).groups as Shown[];
    const byCause = new Map<string, string[]>();
    for (const group of groups)
      byCause.set(group.causes[0], [...(byCause.get(group.causes[0]) ?? []), group.key]);
    return json({
      patterns: [...byCause.entries()].map(([cause, groupKeys]) => ({
        name: cause,
        description: `runs noted ${cause}`,
        groupKeys,
        module: modules[cause] ?? "prompt",
      })),
    });
  };
}

const stepLimited: Failure[] = [
  { cause: "step-budget-exhausted", events: ["step-limit"], toolError: true },
  { cause: "step-budget-exhausted", events: ["step-limit", "context-overflow"], toolError: true },
  { cause: "ran-out-of-steps", events: ["step-limit"] },
];
const loopModules = { "step-budget-exhausted": "agent_loop", "ran-out-of-steps": "agent_loop" };

async function merged(failures: Failure[], modules: Record<string, string>, minTasks?: number) {
  const { tasks, records, evidence } = batch(failures);
  const { patterns } = await aggregateFailures({
    evidence,
    records,
    tasks,
    refiner: splittingMerge(modules),
    minTasks,
  });
  return patterns;
}

describe("poolNarrowPatterns (through aggregateFailures)", () => {
  it("pools narrow patterns of one module whose every run was cut at the step limit", async () => {
    const patterns = await merged(stepLimited, loopModules, 3);
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({
      name: "step-budget-exhausted",
      module: "agent_loop",
      namedBy: "llm",
      support: { tasks: 3 },
      pooled: {
        from: ["step-budget-exhausted", "ran-out-of-steps"],
        signals: ["step-limit", "no-answer"],
      },
    });
    expect(patterns[0].description).toContain("Pooled with ran-out-of-steps");
  });

  it("leaves the merge as it is without a support threshold", async () => {
    const patterns = await merged(stepLimited, loopModules);
    expect(patterns.map((pattern) => [pattern.name, pattern.support.tasks])).toEqual([
      ["step-budget-exhausted", 2],
      ["ran-out-of-steps", 1],
    ]);
  });

  it("does not pool patterns the merge pointed at different modules", async () => {
    const patterns = await merged(
      stepLimited,
      { "step-budget-exhausted": "agent_loop", "ran-out-of-steps": "completion" },
      3,
    );
    expect(patterns.map((pattern) => pattern.support.tasks)).toEqual([2, 1]);
    expect(patterns.every((pattern) => pattern.pooled === undefined)).toBe(true);
  });

  it("never pools plain wrong answers: only their labels tell causes apart", async () => {
    const patterns = await merged(
      [{ cause: "misread-details" }, { cause: "misread-details" }, { cause: "incorrect-answer" }],
      {},
      3,
    );
    expect(patterns.map((pattern) => pattern.support.tasks)).toEqual([2, 1]);
  });

  it("does not pool runs that share no decisive signal, nor a pool still below support", async () => {
    const apart = await merged(
      [
        { cause: "lookup-failed", toolError: true },
        { cause: "lookup-failed", toolError: true },
        { cause: "ran-out-of-steps", events: ["step-limit"] },
      ],
      { "lookup-failed": "agent_loop", "ran-out-of-steps": "agent_loop" },
      3,
    );
    expect(apart.map((pattern) => pattern.support.tasks)).toEqual([2, 1]);
    const small = await merged(stepLimited.slice(1), loopModules, 3);
    expect(small.map((pattern) => pattern.support.tasks)).toEqual([1, 1]);
  });

  it("leaves a supported pattern as the merge made it", async () => {
    const patterns = await merged(
      [...stepLimited, { cause: "step-budget-exhausted", events: ["step-limit"], toolError: true }],
      loopModules,
      3,
    );
    expect(patterns.map((pattern) => [pattern.name, pattern.support.tasks])).toEqual([
      ["step-budget-exhausted", 3],
      ["ran-out-of-steps", 1],
    ]);
  });
});

describe("diagnoseBatch with a merge that splits one cause", () => {
  it("finds the step-limit pattern systematic although no merged pattern alone was", async () => {
    const { tasks, records } = batch(stepLimited);
    const causes = stepLimited.map((failure) => failure.cause);
    const refiner = new ScriptedProvider((request: ChatRequest) => {
      if (request.jsonSchema?.name === "failure_notes") {
        const shown = evidenceOf(request).failures as { id: string; task: string }[];
        return json({
          notes: shown.map((failure) => ({
            id: failure.id,
            note: "cut at the step limit",
            cause: causes[Number(/Question t(\d+)/.exec(failure.task)?.[1])],
          })),
        });
      }
      return mergeReply(loopModules)(request);
    });
    const report = await diagnoseBatch({
      records,
      tasks,
      refiner,
      minSupport: { tasks: 3, categories: 1 },
      notesPerSignature: 3,
    });
    expect(report.patterns.map((pattern) => [pattern.name, pattern.kind])).toEqual([
      ["step-budget-exhausted", "systematic"],
    ]);
  });
});
