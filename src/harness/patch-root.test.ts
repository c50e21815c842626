import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../harness/unified-diff.js";
import { findGitRoot, patchBase, rebasePatch } from "./patch-root.js";

function git(cwd: string, ...args: string[]) {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

describe("harness.patch relative to the repository root", () => {
  it("prefixes file headers only, never a hunk line that looks like one", () => {
    const { patch } = unifiedDiff({
      path: "rules.md",
      before: "-- a/old\nkeep\n",
      after: "++ b/new\nkeep\n",
    });
    expect(patch).toContain("\n--- a/old\n");
    const rebased = rebasePatch(patch, "agent/harness");
    expect(rebased.split("\n").slice(0, 2)).toEqual([
      "--- a/agent/harness/rules.md",
      "+++ b/agent/harness/rules.md",
    ]);
    expect(rebased).toContain("\n--- a/old\n");
    expect(rebased).toContain("\n+++ b/new\n");
    expect(rebasePatch(patch, "")).toBe(patch);
    const created = unifiedDiff({ path: "new.md", after: "x\n" }).patch;
    expect(rebasePatch(created, "h").split("\n").slice(0, 2)).toEqual([
      "--- /dev/null",
      "+++ b/h/new.md",
    ]);
  });

  it("finds the git root above the config folder, else falls back to the config folder", async () => {
    const repo = await mkdtemp(join(tmpdir(), "ecdysis-root-"));
    git(repo, "init", "-q");
    await mkdir(join(repo, "agent", "harness"), { recursive: true });
    expect(findGitRoot(join(repo, "agent"))).toBe(repo);
    const base = patchBase({
      configDir: join(repo, "agent"),
      harnessDir: join(repo, "agent", "harness"),
    });
    expect(base).toEqual({ root: repo, prefix: "agent/harness", inRepository: true });
    const loose = await mkdtemp(join(tmpdir(), "ecdysis-loose-"));
    expect(patchBase({ configDir: loose, harnessDir: join(loose, "harness") })).toEqual({
      root: loose,
      prefix: "harness",
      inRepository: false,
    });
  });

  it("applies with plain `git apply` from the repository root", async () => {
    const repo = await mkdtemp(join(tmpdir(), "ecdysis-root-"));
    git(repo, "init", "-q");
    await mkdir(join(repo, "agent", "harness"), { recursive: true });
    await writeFile(join(repo, "agent", "harness", "rules.md"), "- one\n");
    const { patch } = unifiedDiff({ path: "rules.md", before: "- one\n", after: "- one\n- two\n" });
    await writeFile(join(repo, "harness.patch"), rebasePatch(patch, "agent/harness"));
    git(repo, "apply", "harness.patch");
    expect(await readFile(join(repo, "agent", "harness", "rules.md"), "utf8")).toBe(
      "- one\n- two\n",
    );
  });
});
