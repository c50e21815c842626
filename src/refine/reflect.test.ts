import { describe, expect, it } from "vitest";
import { evidenceOf, makeRecord, makeTask } from "../diagnose/testing/rollout-fixtures.js";
import { GuardError } from "../errors/guard-error.js";
import { architectTemplate } from "./prompts/architect.js";
import { diagnosticianTemplate } from "./prompts/diagnostician.js";
import { editorTemplate } from "./prompts/editor.js";
import { refine } from "./refine.js";
import { reflect } from "./reflect.js";
import {
  defaultScripts,
  makeHarness,
  makePattern,
  roleProvider,
} from "./testing/refine-fixtures.js";

const harness = makeHarness();
type ShownPattern = {
  id: string;
  support: { tasks: number; categories: number };
  examples: { task: string }[];
};

describe("reflect", () => {
  it("runs Diagnostician → Architect → Editor without a Skeptic on one pattern of the failures", async () => {
    const tasks = [makeTask("a", { category: "math" }), makeTask("b", { category: "geo" })];
    const failures = [
      makeRecord({ taskId: "a", category: "math", events: ["step-limit"] }),
      makeRecord({ taskId: "b", category: "geo" }),
    ];
    const provider = roleProvider(defaultScripts);
    const record = await reflect({ failures, tasks, harness, refiner: provider, rejected: [] });
    expect(provider.calls.map((call) => call.jsonSchema?.name)).toEqual([
      "diagnosis",
      "hms",
      "edits",
    ]);
    expect(record.mode).toBe("reflect");
    expect(record.outcome).toBe("accepted");
    expect(record.rounds).toHaveLength(1);
    const shown = evidenceOf(provider.calls[0]).patterns as ShownPattern[];
    expect(shown).toHaveLength(1);
    expect(shown[0].support).toEqual({ tasks: 2, categories: 2 });
    expect(shown[0].examples.map((example) => example.task)).toEqual([
      tasks[1].input,
      tasks[0].input,
    ]);
  });

  it("sends the same templates as refine: only the evidence differs", async () => {
    const refineProvider = roleProvider(defaultScripts);
    await refine({
      patterns: [makePattern("p1")],
      harness,
      refiner: refineProvider,
      rejected: [],
      skepticRounds: 1,
    });
    const reflectProvider = roleProvider(defaultScripts);
    await reflect({
      failures: [makeRecord({ taskId: "a" })],
      tasks: [makeTask("a")],
      harness,
      refiner: reflectProvider,
      rejected: [],
    });
    const systemOf = (calls: typeof refineProvider.calls, name: string) =>
      calls.find((call) => call.jsonSchema?.name === name)?.messages[0].content;
    for (const [name, template] of [
      ["diagnosis", diagnosticianTemplate],
      ["hms", architectTemplate],
      ["edits", editorTemplate],
    ] as const) {
      expect(systemOf(reflectProvider.calls, name)).toBe(template);
      expect(systemOf(refineProvider.calls, name)).toBe(template);
      const schemaOf = (calls: typeof refineProvider.calls) =>
        calls.find((call) => call.jsonSchema?.name === name)?.jsonSchema;
      expect(schemaOf(reflectProvider.calls)).toEqual(schemaOf(refineProvider.calls));
    }
    expect(evidenceOf(reflectProvider.calls[0])).not.toEqual(evidenceOf(refineProvider.calls[0]));
  });

  it("shows no held-out text even when the task list passed in holds other splits", async () => {
    const marker = "HELDOUT-MARKER-7731";
    const tasks = [
      makeTask("train-1"),
      makeTask("held-1", { input: `What is ${marker}?`, expected: marker }),
    ];
    const provider = roleProvider(defaultScripts);
    await reflect({
      failures: [makeRecord({ taskId: "train-1" })],
      tasks,
      harness,
      refiner: provider,
      rejected: [],
    });
    for (const call of provider.calls) expect(JSON.stringify(call.messages)).not.toContain(marker);
  });

  it("refuses failures drawn from held-out tasks", async () => {
    const provider = roleProvider(defaultScripts);
    const heldout = [makeTask("held-1")];
    await expect(
      reflect({
        failures: [makeRecord({ taskId: "held-1" })],
        tasks: heldout,
        harness,
        refiner: provider,
        rejected: [],
        heldout,
      }),
    ).rejects.toBeInstanceOf(GuardError);
    expect(provider.calls).toHaveLength(0);
  });

  it("refuses a failure whose task text is a held-out task under another id", async () => {
    const provider = roleProvider(defaultScripts);
    const heldout = [makeTask("held-1")];
    const copy = makeTask("train-9", { input: heldout[0].input });
    await expect(
      reflect({
        failures: [makeRecord({ taskId: "train-9" })],
        tasks: [copy],
        harness,
        refiner: provider,
        rejected: [],
        heldout,
      }),
    ).rejects.toBeInstanceOf(GuardError);
    expect(provider.calls).toHaveLength(0);
  });

  it("makes no call without failures", async () => {
    const provider = roleProvider({});
    const record = await reflect({
      failures: [],
      tasks: [],
      harness,
      refiner: provider,
      rejected: [],
    });
    expect(record.outcome).toBe("no-patterns");
    expect(provider.calls).toHaveLength(0);
  });
});
