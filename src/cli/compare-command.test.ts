import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { EvolveResult } from "../evolve/result-schema.js";
import { runEvolve } from "../evolve/run-evolve.js";
import { ecdysisStrategy } from "../evolve/strategies/ecdysis.js";
import { fakeStages } from "../evolve/testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../evolve/testing/fake-world.js";
import { runCli } from "./testing/run-cli.js";

let dir: string;
let a: EvolveResult;

async function evolveRun(train: ReturnType<typeof specs>) {
  const loaded = await fakeProject({
    train,
    heldout: [
      ...specs({ prefix: "h", count: 4, fault: "calc" }),
      ...specs({ prefix: "hn", count: 4 }),
    ],
  });
  return runEvolve({
    loaded,
    strategy: ecdysisStrategy(),
    outDir: join(loaded.root, "out"),
    models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
    stages: fakeStages().stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => Date.parse("2030-01-01T00:00:00Z") },
    metadata: {
      ecdysisVersion: "0.1.0",
      git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
    },
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ecdysis-compare-"));
  a = await evolveRun([
    ...specs({ prefix: "c", count: 6, fault: "calc" }),
    ...specs({ prefix: "n", count: 4 }),
  ]);
  const b = await evolveRun([
    ...specs({ prefix: "c", count: 6, fault: "calc" }),
    ...specs({ prefix: "d", count: 4, fault: "date", categories: ["b", "c"] }),
    ...specs({ prefix: "n", count: 6 }),
  ]);
  for (const [name, result] of [
    ["run-a", a],
    ["run-b", b],
  ] as const) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, "result.json"), JSON.stringify(result));
  }
});

describe("ecdysis compare", () => {
  it("prints two runs side by side: accuracies with intervals and deltas, gate, cost, changes", async () => {
    const run = await runCli(["compare", "run-a", "run-b/result.json"], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^\s+A: run-a\/result\.json\s+B: run-b\/result\.json\s+B − A$/);
    expect(run.stdout).toMatch(
      /^held-out: final\s+100\.0% \[[\d.–]+\] \(n=8\)\s+100\.0% \[[\d.–]+\] \(n=8\)\s+\+0\.0 pts$/m,
    );
    expect(run.stdout).toMatch(
      /^train: seed\s+40\.0% \[[\d.–]+\] \(n=10\)\s+37\.5% \[[\d.–]+\] \(n=16\)\s+−2\.5 pts$/m,
    );
    expect(run.stdout).toMatch(/^held-out gate\s+passed \(p [<=] [\d.]+\)\s+passed/m);
    expect(run.stdout).toMatch(/^finished, commit\s+2030-01-01 00:00 · 0123456/m);
    expect(run.stdout).toMatch(/^cost\s+\$[\d.]+\s+\$[\d.]+\s+[+−]\$[\d.]+$/m);
    expect(run.stdout).toMatch(/^ {2}split\s+agent \$[\d.]+ · refiner \$[\d.]+/m);
    expect(run.stdout).toContain('  both    prompt: add rule "fix:calc"');
    expect(run.stdout).toContain('  B only  prompt: add rule "fix:date"');
    expect(run.stdout).toContain("note: the train splits differ in size (10 vs 16 tasks)");
  });

  it("refuses a missing run and a file that is not a result.json, naming the file and field", async () => {
    const missing = await runCli(["compare", "run-a", "nope"], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, "nope")}: no such file or folder`);
    const { final: _final, ...broken } = a;
    await writeFile(join(dir, "broken.json"), JSON.stringify(broken));
    const bad = await runCli(["compare", "run-a", "broken.json"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/broken\.json: 'final': is not an evolve result\.json/);
    const one = await runCli(["compare", "run-a"], { cwd: dir });
    expect(one.code).toBe(2);
    expect(one.stderr).toContain("give exactly two runs");
  });
});
