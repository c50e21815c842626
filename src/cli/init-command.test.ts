import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { generateWorldFiles, loadWorld } from "../sim/index.js";
import { repoRoot, runCli } from "./testing/run-cli.js";

describe("ecdysis init", () => {
  it("scaffolds a loadable project without the ground truth", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    const run = await runCli(["init", "project"], { cwd: dir });
    expect(run.code).toBe(0);
    const project = join(dir, "project");
    expect((await readdir(project)).sort()).toEqual([".github", "ecdysis.yml", "harness", "tasks"]);
    expect(await readdir(join(project, "tasks"))).toEqual(["heldout.jsonl", "train.jsonl"]);
    const loaded = await loadConfig(join(project, "ecdysis.yml"));
    expect(loaded.config.model).toMatchObject({ provider: "sim", world: "quickstart" });
    expect(loaded.config.harness.editable).not.toContain("knowledge.md");
    const workflow = await readFile(join(project, ".github", "workflows", "ecdysis.yml"), "utf8");
    expect(workflow).toContain("mode: gate");
    expect(workflow).toContain("permissions:");
  });

  it("refuses to overwrite and writes nothing when any target exists", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    await mkdir(join(dir, "tasks"));
    await writeFile(join(dir, "tasks", "mine.jsonl"), "{}\n");
    const run = await runCli(["init"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("never overwrites");
    expect((await readdir(dir)).sort()).toEqual(["tasks"]);
    expect(await readdir(join(dir, "tasks"))).toEqual(["mine.jsonl"]);
  });

  it("keeps the committed quickstart example in step with the quickstart world", async () => {
    const example = join(repoRoot, "examples", "quickstart");
    const loaded = await loadConfig(join(example, "ecdysis.yml"));
    expect(loaded.config.model.world).toBe("quickstart");
    expect(loaded.config.harness.editable).toEqual(["harness.yaml", "system.md", "rules.md"]);
    const fresh = await mkdtemp(join(tmpdir(), "ecdysis-example-"));
    const files = await generateWorldFiles({
      world: await loadWorld(loaded.config.model.world ?? ""),
      outDir: fresh,
    });
    // If this fails the world or its generator changed: regenerate with `ecdysis init` (see examples/quickstart).
    expect(await readFile(join(example, "tasks", "train.jsonl"), "utf8")).toBe(
      await readFile(files.train, "utf8"),
    );
    expect(await readFile(join(example, "tasks", "heldout.jsonl"), "utf8")).toBe(
      await readFile(files.heldout, "utf8"),
    );
    for (const name of await readdir(files.harnessDir)) {
      expect(await readFile(join(example, "harness", name), "utf8")).toBe(
        await readFile(join(files.harnessDir, name), "utf8"),
      );
    }
  });
});
