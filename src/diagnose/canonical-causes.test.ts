import { describe, expect, it } from "vitest";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { canonicaliseCauses } from "./canonical-causes.js";
import { diagnoseBatch } from "./diagnose-batch.js";
import { type Evidence, extractEvidence } from "./evidence.js";
import { evidenceOf, json, makeRecord, makeTask } from "./testing/rollout-fixtures.js";

function evidence(id: string, cause: string, signals: { noAnswer?: boolean } = {}): Evidence {
  const record = makeRecord({
    taskId: id,
    ...(signals.noAnswer
      ? { answer: null, output: "So it is Paris.", reason: "no-answer" }
      : { answer: "Lyon", output: "Answer: Lyon" }),
  });
  return { ...extractEvidence({ record, task: makeTask(id, { expected: "Paris" }), id }), cause };
}

describe("canonicaliseCauses", () => {
  it("gives one label to the failures of one decisive signature, however they were worded", () => {
    const out = canonicaliseCauses([
      evidence("a", "missing-final-answer", { noAnswer: true }),
      evidence("b", "no-answer-line", { noAnswer: true }),
      evidence("c", "missing-final-answer", { noAnswer: true }),
      evidence("d", "format-noncompliance", { noAnswer: true }),
    ]);
    expect(out.map((item) => item.cause)).toEqual(Array(4).fill("missing-final-answer"));
    expect(out.map((item) => item.label)).toEqual([
      "missing-final-answer",
      "no-answer-line",
      "missing-final-answer",
      "format-noncompliance",
    ]);
  });

  it("merges the labels of runs whose number is off, computed without a tool", () => {
    const numeric = (id: string, cause: string) => {
      const record = makeRecord({ taskId: id, answer: "41", output: "Answer: 41" });
      return { ...extractEvidence({ record, task: makeTask(id), id }), cause };
    };
    const out = canonicaliseCauses([
      numeric("a", "miscalculation"),
      numeric("b", "math-mistake"),
      numeric("c", "miscalculation"),
    ]);
    expect(out.map((item) => item.cause)).toEqual(Array(3).fill("miscalculation"));
  });

  it("keeps apart labels the signals cannot tell apart, unless they say the same words", () => {
    const out = canonicaliseCauses([
      evidence("a", "calculation-error"),
      evidence("b", "error-in-calculation"),
      evidence("c", "calculation-errors"),
      evidence("d", "misread-details"),
    ]);
    expect(out.map((item) => item.cause)).toEqual([
      "calculation-error",
      "calculation-error",
      "calculation-error",
      "misread-details",
    ]);
  });

  it("leaves unexplained failures unexplained", () => {
    const out = canonicaliseCauses([
      evidence("a", "unexplained", { noAnswer: true }),
      evidence("b", "missing-final-answer", { noAnswer: true }),
    ]);
    expect(out.map((item) => item.cause)).toEqual(["unexplained", "missing-final-answer"]);
  });
});

describe("diagnoseBatch with paraphrased labels", () => {
  const labels = ["missing-final-answer", "no-answer-line", "format-noncompliance"];

  function refiner(mergeReply: "none" | "split") {
    return new ScriptedProvider((request: ChatRequest) => {
      const shown = evidenceOf(request);
      if (request.jsonSchema?.name === "failure_notes") {
        const failures = shown.failures as { id: string; task: string }[];
        return json({
          notes: failures.map((failure) => ({
            id: failure.id,
            note: "no answer line",
            cause: labels[Number(/t(\d+)/.exec(failure.task)?.[1] ?? 0) % labels.length],
          })),
        });
      }
      if (request.jsonSchema?.name === "pattern_merge") {
        const groups = shown.groups as { key: string; causes: string[] }[];
        return mergeReply === "none"
          ? { content: "I could not merge these." }
          : json({
              patterns: groups.map((group) => ({
                name: group.causes[0],
                description: "",
                groupKeys: [group.key],
                module: "completion",
              })),
            });
      }
      return undefined;
    });
  }

  it.each(["none", "split"] as const)(
    "paraphrases of one cause land in one systematic pattern (merge reply: %s)",
    async (mergeReply) => {
      const tasks = Array.from({ length: 7 }, (_, index) =>
        makeTask(`t${index}`, { input: `Question t${index}: what is the value?` }),
      );
      const records = tasks.map((task) =>
        makeRecord({ taskId: task.id, answer: null, output: "So it is 42.", reason: "no-answer" }),
      );
      const report = await diagnoseBatch({
        records,
        tasks,
        refiner: refiner(mergeReply),
        minSupport: { tasks: 3, categories: 1 },
        // Every failure noted, so each label is written (and canonicalised) at least twice.
        notesPerSignature: 7,
      });
      expect(report.patterns).toHaveLength(1);
      expect(report.patterns[0]).toMatchObject({ kind: "systematic", support: { tasks: 7 } });
      expect(report.patterns[0].causes).toEqual(["missing-final-answer"]);
      expect(new Set(report.evidence.map((item) => item.label))).toEqual(new Set(labels));
    },
  );
});
