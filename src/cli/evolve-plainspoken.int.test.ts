import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./testing/run-cli.js";

const config = `model:
  provider: sim
  model: sim-1
  world: plainspoken
harness:
  kind: builtin
  dir: harness
  editable: [harness.yaml, system.md, rules.md]
tasks:
  train: tasks/train.jsonl
  heldout: tasks/heldout.jsonl
cacheDir: .ecdysis/cache
`;

type Dropped = { stage: string; reason: string };
type Iteration = {
  refinement?: { edits: { edit: { kind: string } }[]; droppedEdits?: Dropped[] };
  repair?: Iteration;
  guardRejections: { reason: string }[];
};

/**
 * The plain-spoken, prompt-sensitive world (a sim that answers like a real model) end to end
 * through the CLI: evolution still reaches a held-out gain, and no edit is lost silently.
 */
describe("ecdysis evolve on the plainspoken world", () => {
  it("reaches a held-out gain and lists every edit it left out, with its reason", async () => {
    const project = await mkdtemp(join(tmpdir(), "ecdysis-plainspoken-"));
    const world = await runCli(["sim", "world", "--world", "plainspoken", "--out", "."], {
      cwd: project,
    });
    expect(world.code).toBe(0);
    await writeFile(join(project, "ecdysis.yml"), config);
    const evolve = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "evo"], {
      cwd: project,
    });
    expect(evolve.code, evolve.stderr).toBe(0);
    const result = JSON.parse(await readFile(join(project, "evo", "result.json"), "utf8")) as {
      baseline: { heldout: { accuracy: number } };
      final: { heldout: { accuracy: number } };
      iterations: Iteration[];
    };
    expect(result.final.heldout.accuracy).toBeGreaterThan(result.baseline.heldout.accuracy + 0.2);
    const iterations = result.iterations.flatMap((iteration) =>
      iteration.repair ? [iteration, iteration.repair] : [iteration],
    );
    // The plain-spoken refiner writes prompt-level fixes into system.md as text edits.
    const kinds = iterations.flatMap((iteration) =>
      (iteration.refinement?.edits ?? []).map((edit) => edit.edit.kind),
    );
    expect(kinds).toContain("replace_text");
    const report = await readFile(join(project, "evo", "report.md"), "utf8");
    const clipped = (reason: string) => reason.slice(0, 60).replaceAll("|", "\\|");
    for (const iteration of iterations) {
      for (const dropped of iteration.refinement?.droppedEdits ?? [])
        expect(report).toContain(clipped(dropped.reason));
      for (const rejection of iteration.guardRejections)
        expect(report).toContain(clipped(rejection.reason));
    }
  });
});
