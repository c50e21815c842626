import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { runEvolve } from "./run-evolve.js";
import { readRunRecords, runRecordsFile } from "./run-records.js";
import { ecdysisStrategy } from "./strategies/ecdysis.js";
import { fakeStages } from "./testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  fakeTask,
  specs,
} from "./testing/fake-world.js";

async function evolved() {
  const train = [
    ...specs({ prefix: "c", count: 6, fault: "calc" }),
    ...specs({ prefix: "n", count: 4 }),
  ];
  const heldout = [
    ...specs({ prefix: "h", count: 4, fault: "calc" }),
    ...specs({ prefix: "hn", count: 2 }),
  ];
  const loaded = await fakeProject({ train, heldout });
  const outDir = path.join(loaded.root, "out");
  const result = await runEvolve({
    loaded,
    strategy: ecdysisStrategy(),
    outDir,
    models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
    stages: fakeStages().stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => 0 },
  });
  return { result, outDir, train: train.map(fakeTask), heldout: heldout.map(fakeTask) };
}

describe("records.json (what the drill-down report reads)", () => {
  it("keeps the failing train rollouts with their tasks and the held-out tasks as outcomes only", async () => {
    const { result, outDir, train, heldout } = await evolved();
    const records = await readRunRecords(outDir);
    if (!records) throw new Error("no records.json written");
    const text = await readFile(path.join(outDir, runRecordsFile), "utf8");

    const trainIds = new Set(train.map((task) => task.id));
    expect(records.rollouts.length).toBeGreaterThan(0);
    for (const record of records.rollouts) {
      expect(trainIds.has(record.taskId)).toBe(true);
      expect(record.verdict.pass).toBe(false);
    }
    // Every task a kept rollout ran is there with what it asked and expected.
    for (const record of records.rollouts) {
      const task = records.tasks.find((item) => item.id === record.taskId);
      const source = train.find((item) => item.id === record.taskId);
      expect(task).toEqual({
        id: source?.id,
        category: source?.category,
        input: source?.input,
        expected: source?.expected,
      });
    }
    // Every member of every pattern can be drilled into.
    const members = result.iterations.flatMap((iteration) =>
      (iteration.diagnosis?.patterns ?? []).flatMap((pattern) => pattern.memberKeys),
    );
    expect(members.length).toBeGreaterThan(0);
    const kept = new Set(records.rollouts.map((record) => record.key));
    for (const key of members) expect(kept.has(key) || records.missing.includes(key)).toBe(true);
    expect(records.missing).toEqual([]);

    // Held-out: ids, categories, pass, spend — never input, expected answer, output or trace.
    for (const side of [records.measures.heldout.seed, records.measures.heldout.final]) {
      expect(side.tasks.map((task) => task.taskId).sort()).toEqual(
        heldout.map((task) => task.id).sort(),
      );
      for (const task of side.tasks)
        expect(Object.keys(task).sort()).toEqual(
          ["category", "costUsd", "pass", "passes", "samples", "taskId", "tokens"].sort(),
        );
    }
    for (const task of heldout) {
      expect(text).not.toContain(task.input);
      expect(text).not.toContain(JSON.stringify(task.expected));
    }
    // The seed's and final's train outcomes carry their rollout keys (the task table links them).
    expect(records.measures.train.seed.tasks.every((task) => task.rolloutKeys?.length)).toBe(true);
    expect(records.measures.train.seed.harnessHash).toBe(result.harness.seedHash);
    expect(records.measures.train.final.harnessHash).toBe(result.harness.finalHash);
  });

  it("reads nothing from a run without records.json and names the file and field of a bad one", async () => {
    const { outDir } = await evolved();
    expect(await readRunRecords(path.join(outDir, "nowhere"))).toBeUndefined();
    const file = path.join(outDir, runRecordsFile);
    await writeFile(file, "{ not json");
    await expect(readRunRecords(outDir)).rejects.toThrow(InputError);
    await expect(readRunRecords(outDir)).rejects.toThrow(/records\.json.*is not JSON/);
    await writeFile(file, JSON.stringify({ schemaVersion: 1, tasks: [], rollouts: "x" }));
    const error = await readRunRecords(outDir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect(String((error as Error).message)).toMatch(/records\.json/);
    expect((error as InputError).location.field).toBe("rollouts");
  });
});
