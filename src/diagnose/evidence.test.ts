import { describe, expect, it } from "vitest";
import { agentEventKinds } from "../agent/types.js";
import { unknownTaskReply } from "../sim/agent-behaviour.js";
import { extractBatchEvidence, extractEvidence, parseNumber } from "./evidence.js";
import { makeRecord, makeTask, step } from "./testing/rollout-fixtures.js";

describe("extractEvidence", () => {
  it.each(agentEventKinds)("turns a '%s' event into a signal of the same name", (kind) => {
    const evidence = extractEvidence({
      record: makeRecord({ taskId: "t1", events: [kind] }),
      id: "f1",
    });
    expect(evidence.eventKinds).toEqual([kind]);
    expect(evidence.signals).toContain(kind);
  });

  it("reads tool calls, tool errors and the verdict reason", () => {
    const record = makeRecord({
      taskId: "t1",
      reason: "wrong-answer",
      steps: [
        step([
          {
            name: "calculator",
            arguments: '{"expression":"2x3"}',
            result: "error: invalid character 'x'",
            error: true,
          },
        ]),
        step([{ name: "lookup", arguments: '{"key":"Paris"}', result: "## Paris", error: false }]),
      ],
    });
    const evidence = extractEvidence({ record, id: "f1" });
    expect(evidence).toMatchObject({
      toolCalls: 2,
      toolErrors: 1,
      toolNames: ["calculator", "lookup"],
      steps: 2,
    });
    expect(evidence.signals).toEqual(["tool-error", "wrong-answer"]);
    expect(evidence.signalKey).toBe("tool-error+wrong-answer");
  });

  it("marks a run without tool calls and a missing answer", () => {
    const record = makeRecord({
      taskId: "t1",
      answer: null,
      output: "I think it is large.",
      reason: "no-answer",
    });
    const evidence = extractEvidence({ record, id: "f1" });
    expect(evidence.answerExtracted).toBe(false);
    expect(evidence.signals).toEqual(["no-answer", "no-tool-calls"]);
  });

  it("recognises gave-up wording", () => {
    const record = makeRecord({
      taskId: "t1",
      answer: null,
      output: "The tool failed, so I cannot determine the answer.",
    });
    expect(extractEvidence({ record, id: "f1" }).gaveUp).toBe(true);
    const fine = makeRecord({ taskId: "t2", output: "Answer: 7" });
    expect(extractEvidence({ record: fine, id: "f2" }).gaveUp).toBe(false);
  });

  it("recognises a model saying it does not know how to do the task (not a lost statement, not giving up)", () => {
    for (const output of [
      unknownTaskReply,
      "I'm sorry, but I don't know how to do this task.",
      "That is not a kind of question I can answer.",
    ]) {
      const evidence = extractEvidence({
        record: makeRecord({ taskId: "t1", answer: null, output }),
        id: "f1",
      });
      expect(evidence.signals, output).toContain("unknown-task");
      expect(evidence.unknownTask, output).toBe(true);
      expect(evidence.taskDropped || evidence.gaveUp, output).toBe(false);
    }
    const unsure = makeRecord({ taskId: "t2", answer: null, output: "I don't know the answer." });
    expect(extractEvidence({ record: unsure, id: "f2" }).unknownTask).toBe(false);
  });

  it("detects a task statement lost to context overflow", () => {
    const said = makeRecord({
      taskId: "t1",
      events: ["context-overflow"],
      output: "I can't see the question you want me to answer.",
    });
    const noted = makeRecord({
      taskId: "t2",
      events: ["context-overflow"],
      eventDetails: { "context-overflow": "dropped 2 messages including the task" },
    });
    const kept = makeRecord({
      taskId: "t3",
      events: ["context-overflow"],
      eventDetails: { "context-overflow": "dropped 2 tool messages" },
    });
    expect(extractEvidence({ record: said, id: "f1" }).taskDropped).toBe(true);
    expect(extractEvidence({ record: noted, id: "f2" }).signals).toContain("task-dropped");
    expect(extractEvidence({ record: kept, id: "f3" }).taskDropped).toBe(false);
  });

  it("compares the step count with the limit", () => {
    const record = makeRecord({ taskId: "t1", steps: [step(), step(), step()] });
    expect(extractEvidence({ record, id: "f1", stepLimit: 3 }).signals).toContain("step-limit");
    expect(extractEvidence({ record, id: "f1", stepLimit: 6 }).signals).not.toContain("step-limit");
    const cut = makeRecord({
      taskId: "t1",
      events: ["step-limit"],
      eventDetails: { "step-limit": "max_steps 4 reached" },
    });
    expect(extractEvidence({ record: cut, id: "f1" }).stepLimit).toBe(4);
  });

  it("measures the numeric distance when answer and expectation are numbers", () => {
    const record = makeRecord({ taskId: "t1", answer: "1,230" });
    const evidence = extractEvidence({
      record,
      task: makeTask("t1", { expected: 1234 }),
      id: "f1",
    });
    expect(evidence.numericDistance).toBe(4);
    expect(evidence.signals).toContain("numeric-mismatch");
    const words = extractEvidence({
      record: makeRecord({ taskId: "t2", answer: "Paris" }),
      task: makeTask("t2"),
      id: "f2",
    });
    expect(words.numericDistance).toBeNull();
  });

  it("keeps the category out of the signal key so patterns can span categories", () => {
    const a = extractEvidence({ record: makeRecord({ taskId: "t1", category: "math" }), id: "f1" });
    const b = extractEvidence({ record: makeRecord({ taskId: "t2", category: "geo" }), id: "f2" });
    expect(a.signalKey).toBe(b.signalKey);
    expect([a.category, b.category]).toEqual(["math", "geo"]);
  });
});

describe("extractBatchEvidence", () => {
  it("covers only failed records and numbers them f1…fn", () => {
    const records = [
      makeRecord({ taskId: "a" }),
      makeRecord({ taskId: "b", pass: true }),
      makeRecord({ taskId: "c" }),
    ];
    const evidence = extractBatchEvidence({ records, tasks: [makeTask("a"), makeTask("c")] });
    expect(evidence.map((item) => [item.id, item.taskId])).toEqual([
      ["f1", "a"],
      ["f2", "c"],
    ]);
  });
});

describe("parseNumber", () => {
  it("parses plain and grouped numbers and refuses words", () => {
    expect(parseNumber(" -3.5 ")).toBe(-3.5);
    expect(parseNumber("12,345")).toBe(12345);
    expect(parseNumber(7)).toBe(7);
    expect(parseNumber("7 apples")).toBeNull();
    expect(parseNumber(null)).toBeNull();
  });
});
