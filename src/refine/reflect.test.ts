import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evidenceOf, makeRecord, makeTask } from "../diagnose/testing/rollout-fixtures.js";
import { GuardError } from "../errors/guard-error.js";
import { withCallCache } from "../llm/call-cache.js";
import { reflectorTemplate } from "./prompts/reflector.js";
import { reflect } from "./reflect.js";
import { defaultScripts, makeHarness, roleProvider } from "./testing/refine-fixtures.js";

const harness = makeHarness();
type ShownRun = { task: string; pass: boolean; feedback: { verdict: string; signals?: string[] } };

describe("reflect (GEPA's one reflection call)", () => {
  it("makes one call, shown the minibatch's passing and failing runs with their feedback, at the temperature and seed given", async () => {
    const tasks = [
      makeTask("a", { category: "math" }),
      makeTask("b", { category: "geo" }),
      makeTask("c", { category: "geo" }),
    ];
    const records = [
      makeRecord({ taskId: "a", category: "math", events: ["step-limit"] }),
      makeRecord({ taskId: "b", category: "geo", pass: true }),
      makeRecord({ taskId: "c", category: "geo" }),
    ];
    const provider = roleProvider(defaultScripts);
    const record = await reflect({
      records,
      tasks,
      harness,
      refiner: provider,
      rejected: [],
      sampling: { temperature: 1, seed: 1234 },
    });
    expect(provider.calls.map((call) => call.jsonSchema?.name)).toEqual(["reflection"]);
    const [call] = provider.calls;
    expect(call.messages[0].content).toBe(reflectorTemplate);
    expect(call.temperature).toBe(1);
    expect(call.seed).toBe(1234);
    const shown = evidenceOf(call).minibatch as ShownRun[];
    expect(shown.map((run) => [run.task, run.pass])).toEqual([
      [tasks[0].input, false],
      [tasks[1].input, true],
      [tasks[2].input, false],
    ]);
    expect(shown[0].feedback.verdict).toBe("wrong-answer");
    expect(shown[0].feedback.signals).toContain("step-limit");
    expect(shown[1].feedback).toEqual({ score: 1, verdict: "pass" });
    expect(record).toMatchObject({ mode: "reflect", outcome: "accepted" });
    expect(record.turns.map((turn) => turn.role)).toEqual(["reflector"]);
    expect(record.edits.map((edit) => edit.edit)).toEqual([
      { kind: "set", path: "agent_loop.max_steps", value: 8 },
    ]);
    // What later reflections and reports are shown of it: the edit in words.
    expect(record.hms?.changes[0].change).toBe("set agent_loop.max_steps to 8");
    expect(record.diagnoses[0]).toMatchObject({
      module: "agent_loop",
      patternId: record.patternIds[0],
    });
  });

  it("validates the edits as the Editor does: an invalid one goes back with its issue and the repair is kept", async () => {
    const provider = roleProvider({
      reflection: (_request, nth) => ({
        content: JSON.stringify({
          diagnoses: [{ rootCause: "too few steps", module: "agent_loop" }],
          edits: [
            {
              module: "agent_loop",
              patterns: [],
              rationale: "more steps",
              edit: {
                kind: "set",
                path: nth === 0 ? "agent_loop.steps" : "agent_loop.max_steps",
                value: 8,
              },
            },
          ],
        }),
      }),
    });
    const record = await reflect({
      records: [makeRecord({ taskId: "a" })],
      tasks: [makeTask("a")],
      harness,
      refiner: provider,
      rejected: [],
    });
    expect(provider.calls).toHaveLength(2);
    expect(provider.calls[1].messages.at(-1)?.content).toMatch(/agent_loop\.steps' is not a field/);
    expect(record.edits.map((edit) => edit.edit)).toEqual([
      { kind: "set", path: "agent_loop.max_steps", value: 8 },
    ]);
    expect(record.turns[0].callIds).toHaveLength(2);
  });

  it("re-asked with another seed, the same reflection is a fresh call, not a replay from the call cache", async () => {
    const provider = roleProvider(defaultScripts);
    const cached = withCallCache(provider, await mkdtemp(join(tmpdir(), "reflect-cache-")));
    const ask = (seed: number) =>
      reflect({
        records: [makeRecord({ taskId: "a" })],
        tasks: [makeTask("a")],
        harness,
        refiner: cached,
        rejected: [],
        sampling: { temperature: 1, seed },
      });
    await ask(1);
    await ask(1);
    expect(provider.calls).toHaveLength(1);
    await ask(2);
    expect(provider.calls).toHaveLength(2);
  });

  it("an unusable reply ends the record as failed, with the reason", async () => {
    const provider = roleProvider({ reflection: () => ({ content: "I cannot help with that." }) });
    const record = await reflect({
      records: [makeRecord({ taskId: "a" })],
      tasks: [makeTask("a")],
      harness,
      refiner: provider,
      rejected: [],
    });
    expect(record.outcome).toBe("failed");
    expect(record.rejection?.reason).toMatch(/reflector/);
    expect(record.edits).toEqual([]);
  });

  it("shows no held-out text even when the task list passed in holds other splits", async () => {
    const marker = "HELDOUT-MARKER-7731";
    const tasks = [
      makeTask("train-1"),
      makeTask("held-1", { input: `What is ${marker}?`, expected: marker }),
    ];
    const provider = roleProvider(defaultScripts);
    await reflect({
      records: [makeRecord({ taskId: "train-1" })],
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
        records: [makeRecord({ taskId: "held-1" })],
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
        records: [makeRecord({ taskId: "train-9" })],
        tasks: [copy],
        harness,
        refiner: provider,
        rejected: [],
        heldout,
      }),
    ).rejects.toBeInstanceOf(GuardError);
    expect(provider.calls).toHaveLength(0);
  });

  it("makes no call when the minibatch has no failure (GEPA skips a perfect minibatch)", async () => {
    const provider = roleProvider({});
    const record = await reflect({
      records: [makeRecord({ taskId: "a", pass: true })],
      tasks: [makeTask("a")],
      harness,
      refiner: provider,
      rejected: [],
    });
    expect(record.outcome).toBe("no-patterns");
    expect(provider.calls).toHaveLength(0);
  });
});
