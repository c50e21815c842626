import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runEvolve } from "../../src/evolve/run-evolve.js";
import { ecdysisStrategy } from "../../src/evolve/strategies/ecdysis.js";
import { fakeStages, ruleEdit } from "../../src/evolve/testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../../src/evolve/testing/fake-world.js";
import { checkEditPath } from "../../src/harness/path-guard.js";
import { fixtureFiles, makeHarnessDir } from "../../src/harness/testing/harness-fixture.js";
import type { PlannedEdit } from "../../src/harness/types.js";

// Issue #25: under a `**` allowlist, a `write_file` to `rules.md/notes.md` while rules.md is a
// file was accepted; writing the outputs then failed with EEXIST, and so did every resume.

describe("a file where the path needs a folder, or a folder where it needs a file", () => {
  it("is refused by the path guard with the reason", async () => {
    const dir = await makeHarnessDir({ ...fixtureFiles, "docs/guide.md": "x\n" });
    await mkdir(path.join(dir, "skipped"), { recursive: true });
    await writeFile(path.join(dir, "big.md"), "not loaded\n");
    const existing = Object.keys({ ...fixtureFiles, "docs/guide.md": "" });
    const check = (file: string) =>
      checkEditPath({ dir, path: file, editable: ["**"], protectedPaths: [], existing });
    expect(check("rules.md/notes.md")).toEqual({
      ok: false,
      reason:
        "path 'rules.md/notes.md': it would need 'rules.md' to be a folder, but that is a file of the harness",
    });
    expect(check("Rules.MD/notes.md").ok).toBe(false);
    expect(check("docs")).toEqual({
      ok: false,
      reason: "path 'docs': it is a folder of the harness (it holds 'docs/guide.md'), not a file",
    });
    // What is on disk counts too, loaded or not.
    expect(check("big.md/notes.md")).toMatchObject({
      ok: false,
      reason: /'big\.md' to be a folder/,
    });
    expect(check("skipped")).toMatchObject({
      ok: false,
      reason: /is a folder in the harness folder/,
    });
    expect(check("docs/notes.md")).toEqual({ ok: true, path: "docs/notes.md" });
  });

  it("leaves a run that proposed it finished, and its resume too", async () => {
    const loaded = await fakeProject({
      train: specs({ prefix: "c", count: 6, fault: "calc" }),
      heldout: specs({ prefix: "h", count: 4, fault: "calc" }),
    });
    loaded.config.harness.editable = ["**"];
    const clash: PlannedEdit = {
      module: "prompt",
      patterns: [],
      rationale: "keep notes beside the rules",
      edit: { kind: "write_file", file: "rules.md/notes.md", content: "Notes.\n" },
    };
    const { stages } = fakeStages({
      propose: (patterns) => [
        ...patterns.map((pattern) => ruleEdit(pattern.name, [pattern.id])),
        { ...clash, patterns: patterns.map((pattern) => pattern.id) },
      ],
    });
    const run = () =>
      runEvolve({
        loaded,
        strategy: ecdysisStrategy(),
        outDir: path.join(loaded.root, "out"),
        models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
        stages,
        adapter: fakeAgentAdapter,
        clock: { now: () => 0 },
      });
    const first = await run();
    const refused = first.iterations.flatMap((iteration) => iteration.guardRejections);
    expect(refused.map((rejection) => [rejection.guard, rejection.edit.edit])).toContainEqual([
      "path",
      clash.edit,
    ]);
    expect(refused[0]?.reason).toMatch(/'rules\.md' to be a folder, but that is a file/);
    expect(first.acceptedEdits.map((edit) => edit.edit)).not.toContainEqual(clash.edit);
    const again = await run();
    expect(again.final).toEqual(first.final);
  });
});
