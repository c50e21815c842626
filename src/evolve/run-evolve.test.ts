import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import type { ChatRequest } from "../llm/types.js";
import type { ModelCallEvent } from "./meter.js";
import { type EvolveResult, readEvolveResult } from "./result-schema.js";
import { runEvolve } from "./run-evolve.js";
import { ecdysisStrategy } from "./strategies/ecdysis.js";
import { fakeStages } from "./testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "./testing/fake-world.js";

const train = [
  ...specs({ prefix: "c", count: 6, fault: "calc" }),
  ...specs({ prefix: "d", count: 4, fault: "date", categories: ["b", "c"] }),
  ...specs({ prefix: "n", count: 6 }),
];
const heldout = [
  ...specs({ prefix: "hc", count: 4, fault: "calc" }),
  ...specs({ prefix: "hd", count: 2, fault: "date" }),
  ...specs({ prefix: "hn", count: 4 }),
];
const clock = { now: () => 0 };

/** result.json without wall times (which differ between a killed-and-resumed run and an uninterrupted one). */
function withoutWallTimes(result: EvolveResult): unknown {
  return JSON.parse(JSON.stringify(result, (key, value) => (key === "wallMs" ? undefined : value)));
}

function requestIds(calls: ChatRequest[]): string[] {
  return calls.map((call) => JSON.stringify(call));
}

function models() {
  return { agent: fakeAgentModel(), refiner: fakeRefinerModel() };
}

describe("runEvolve", () => {
  it("records run metadata, runs a --limit subset under its own run key, and reports every model call", async () => {
    const loaded = await fakeProject({ train, heldout });
    const outDir = `${loaded.root}/out`;
    const events: ModelCallEvent[] = [];
    let now = Date.parse("2030-01-02T03:04:05.000Z");
    const result = await runEvolve({
      loaded,
      strategy: ecdysisStrategy(),
      outDir,
      models: models(),
      stages: fakeStages().stages,
      adapter: fakeAgentAdapter,
      clock: { now: () => now++ },
      limit: 5,
      metadata: { ecdysisVersion: "9.9.9", git: { commit: "abc123", dirty: true } },
      onCall: (event) => events.push(event),
    });
    expect(result.baseline.train.n).toBe(5);
    expect(result.baseline.heldout.n).toBe(5);
    expect(result.run).toMatchObject({
      startedAt: "2030-01-02T03:04:05.000Z",
      ecdysisVersion: "9.9.9",
      git: { commit: "abc123", dirty: true },
      limit: 5,
    });
    expect(Date.parse(result.run?.finishedAt ?? "")).toBeGreaterThan(
      Date.parse(result.run?.startedAt ?? ""),
    );
    const started = events.filter((event) => event.phase === "start");
    const ended = events.filter((event) => event.phase === "end");
    expect(started.length).toBeGreaterThan(0);
    expect(ended).toHaveLength(started.length);
    expect(new Set(started.map((event) => event.role))).toEqual(new Set(["agent", "refiner"]));
    expect(started.some((event) => event.purpose === "refine")).toBe(true);
    const tokens = ended
      .filter((event) => !event.cached)
      .reduce((sum, event) => sum + (event.promptTokens ?? 0) + (event.completionTokens ?? 0), 0);
    expect(tokens).toBe(result.cost.promptTokens + result.cost.completionTokens);
    // The whole split is another run: the journal refuses to mix them.
    await expect(
      runEvolve({
        loaded,
        strategy: ecdysisStrategy(),
        outDir,
        models: models(),
        stages: fakeStages().stages,
        adapter: fakeAgentAdapter,
        clock,
      }),
    ).rejects.toThrow(/other inputs.*--limit \(5 → none\)/);
  });

  it("writes result.json, the evolved harness, a patch and a journal (reports are its callers')", async () => {
    const loaded = await fakeProject({
      train,
      heldout,
      evolve: { ecdysis: { minSupport: { tasks: 3, categories: 2 } } },
    });
    const outDir = `${loaded.root}/out`;
    const { stages } = fakeStages();
    const result = await runEvolve({
      loaded,
      strategy: ecdysisStrategy(),
      outDir,
      models: models(),
      stages,
      adapter: fakeAgentAdapter,
      clock,
    });
    const written = await readEvolveResult(`${outDir}/result.json`);
    expect(written).toEqual(JSON.parse(JSON.stringify(result)));
    expect(written.final.heldout.accuracy).toBe(1);
    expect(written.baseline.heldout).toMatchObject({ accuracy: 0.4, n: 10 });
    expect(written.baseline.heldout.interval[0]).toBeLessThan(0.4);
    expect(result.acceptedEdits.map((edit) => edit.edit)).toEqual(
      [
        { kind: "add_rule", text: "fix:calc" },
        { kind: "add_rule", text: "fix:date" },
      ].slice(0, result.acceptedEdits.length),
    );
    expect(await readFile(`${outDir}/harness/rules.md`, "utf8")).toContain("fix:calc");
    expect(await readFile(`${outDir}/harness.patch`, "utf8")).toContain("+- fix:calc");
    expect(existsSync(`${outDir}/report.md`)).toBe(false);
    const journal = (await readFile(`${outDir}/journal.jsonl`, "utf8")).trim().split("\n");
    expect(JSON.parse(journal[0]).type).toBe("header");
    expect(journal.slice(1).map((line) => JSON.parse(line).stage)).toContain("iteration-1/refine");
    expect(result.cost.rollouts).toBeGreaterThan(0);
    expect(result.cost.refinement.llmCalls).toBeGreaterThan(0);
    expect(result.cost.refinementShare).toBeGreaterThan(0);
  });

  it("a run killed after a stage and resumed ends with the same result and repeats no finished LLM call", async () => {
    const reference = await fakeProject({ train, heldout });
    const uninterrupted = await runEvolve({
      loaded: reference,
      strategy: ecdysisStrategy(),
      outDir: `${reference.root}/out`,
      models: models(),
      stages: fakeStages().stages,
      adapter: fakeAgentAdapter,
      clock,
    });

    const loaded = await fakeProject({ train, heldout });
    const outDir = `${loaded.root}/out`;
    const first = models();
    const killAt = "iteration-1/refine";
    await expect(
      runEvolve({
        loaded,
        strategy: ecdysisStrategy(),
        outDir,
        models: first,
        stages: fakeStages().stages,
        adapter: fakeAgentAdapter,
        clock,
        afterStage: (stage) => {
          if (stage === killAt) throw new Error("killed");
        },
      }),
    ).rejects.toThrow("killed");
    expect(existsSync(`${outDir}/result.json`)).toBe(false);
    const second = models();
    const resumed = fakeStages();
    const result = await runEvolve({
      loaded,
      strategy: ecdysisStrategy(),
      outDir,
      models: second,
      stages: resumed.stages,
      adapter: fakeAgentAdapter,
      clock,
    });
    expect(withoutWallTimes(result)).toEqual(withoutWallTimes(uninterrupted));
    // Finished stages were replayed, not re-run: iteration 1's diagnosis and refinement did not run again.
    expect(
      resumed.calls.refine.map((call) => call.patterns.map((pattern) => pattern.name)),
    ).not.toContainEqual(["calc", "date"]);
    const before = new Set([...requestIds(first.agent.calls), ...requestIds(first.refiner.calls)]);
    const repeated = [
      ...requestIds(second.agent.calls),
      ...requestIds(second.refiner.calls),
    ].filter((request) => before.has(request));
    expect(repeated).toEqual([]);
    expect(first.agent.calls.length).toBeGreaterThan(0);
  });

  it("refuses to resume a run of another configuration", async () => {
    const loaded = await fakeProject({ train, heldout });
    const outDir = `${loaded.root}/out`;
    await runEvolve({
      loaded,
      strategy: ecdysisStrategy(),
      outDir,
      models: models(),
      stages: fakeStages().stages,
      adapter: fakeAgentAdapter,
      clock,
    });
    const changed = { ...loaded, hash: "0".repeat(64) };
    const attempt = runEvolve({
      loaded: changed,
      strategy: ecdysisStrategy(),
      outDir,
      models: models(),
      stages: fakeStages().stages,
      adapter: fakeAgentAdapter,
      clock,
    });
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(/other inputs.*the config file \(/);
  });

  it("stops cleanly at the rollout budget and keeps the seed harness", async () => {
    const loaded = await fakeProject({ train, heldout, evolve: { budget: { rollouts: 10 } } });
    const result = await runEvolve({
      loaded,
      strategy: ecdysisStrategy(),
      outDir: `${loaded.root}/out`,
      models: models(),
      stages: fakeStages().stages,
      adapter: fakeAgentAdapter,
      clock,
    });
    expect(result.stoppedBy).toBe("budget:rollouts");
    expect(result.cost.training.rollouts).toBe(10);
    expect(result.harness.finalHash).toBe(result.harness.seedHash);
    // The final measurement still covers both splits.
    expect(result.final.train.n).toBe(train.length);
    expect(result.final.heldout.n).toBe(heldout.length);
  });
});
