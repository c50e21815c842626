import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultAnswerPattern } from "../config/harness-schema.js";
import { loadConfig } from "../config/load-config.js";
import { loadHarness } from "../harness/load-harness.js";
import { renderSystemPrompt } from "../harness/render.js";
import { generateWorldFiles, loadWorld } from "../sim/index.js";
import { repoRoot, runCli } from "./testing/run-cli.js";
import { ACTION_PLACEHOLDER, exampleWorkflow } from "./workflow-template.js";

/** The indented command lines under `next:` in init's output. */
function nextSteps(stdout: string): string[] {
  const after = stdout.split("\nnext:\n")[1] ?? "";
  return after
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim());
}

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

const usesLines = (text: string) =>
  text.split("\n").filter((line) => /^\s+- uses: /.test(line) && !line.includes("actions/"));

describe("ecdysis init", () => {
  it("scaffolds a loadable project without the ground truth", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    const run = await runCli(["init", "project"], { cwd: dir });
    expect(run.code).toBe(0);
    const project = join(dir, "project");
    expect((await readdir(project)).sort()).toEqual([
      ".github",
      ".gitignore",
      "ecdysis.yml",
      "harness",
      "tasks",
    ]);
    expect(await readFile(join(project, ".gitignore"), "utf8")).toMatch(/^\.ecdysis\/$/m);
    expect(await readdir(join(project, "tasks"))).toEqual(["heldout.jsonl", "train.jsonl"]);
    const loaded = await loadConfig(join(project, "ecdysis.yml"));
    expect(loaded.config.model).toMatchObject({ provider: "sim", world: "quickstart" });
    expect(loaded.config.harness.editable).not.toContain("knowledge.md");
    const workflow = await readFile(join(project, ".github", "workflows", "ecdysis.yml"), "utf8");
    expect(workflow).toContain("mode: gate");
    expect(workflow).toContain("permissions:");
    expect(workflow).toContain(`uses: ${ACTION_PLACEHOLDER} # EDIT ME`);
    expect(run.stdout).toContain(`replace ${ACTION_PLACEHOLDER}`);
  });

  it("adds its ignore lines to an existing .gitignore once, keeping the user's lines", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    await writeFile(join(dir, ".gitignore"), "node_modules/\n");
    const run = await runCli(["init"], { cwd: dir });
    expect(run.code).toBe(0);
    const ignore = await readFile(join(dir, ".gitignore"), "utf8");
    expect(ignore.startsWith("node_modules/\n")).toBe(true);
    expect(ignore.match(/^\.ecdysis\/$/gm)).toHaveLength(1);
    expect(run.stdout).toContain(`updated ${join(dir, ".gitignore")}`);
  });

  it("prints next steps that run as printed, and git add -A then stages no cache file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    git(dir, "init", "-q");
    // `ecdysis` on PATH runs this checkout's CLI (as an installed one would).
    const bin = await mkdtemp(join(tmpdir(), "ecdysis-bin-"));
    const shim = join(bin, "ecdysis");
    await writeFile(
      shim,
      `#!/bin/sh\nexec "${process.execPath}" --import "${join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")}" "${join(repoRoot, "src", "cli.ts")}" "$@"\n`,
    );
    await chmod(shim, 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const run = await runCli(["init", "agent"], { cwd: dir, env });
    expect(run.code).toBe(0);
    const steps = nextSteps(run.stdout);
    expect(steps).toEqual([
      "ecdysis eval --config agent/ecdysis.yml --out agent/.ecdysis/eval",
      "ecdysis evolve --config agent/ecdysis.yml --out agent/.ecdysis/evolve",
    ]);
    const evalRun = spawnSync("sh", ["-c", steps[0]], {
      cwd: dir,
      env: { ...process.env, ...env, CI: "true" },
      encoding: "utf8",
    });
    expect(evalRun.status, evalRun.stderr).toBe(0);
    expect(evalRun.stdout).toMatch(/^train: accuracy/);
    git(dir, "add", "-A");
    const staged = git(dir, "diff", "--cached", "--name-only").trim().split("\n");
    expect(staged).toContain("agent/ecdysis.yml");
    expect(staged.filter((path) => path.includes(".ecdysis/"))).toEqual([]);
  });

  it("puts the workflow at the repository root when DIR is a subfolder, with paths from the root", async () => {
    const repo = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    git(repo, "init", "-q");
    const run = await runCli(["init", "agent"], { cwd: repo });
    expect(run.code).toBe(0);
    expect(await readdir(join(repo, "agent"))).not.toContain(".github");
    const workflow = await readFile(join(repo, ".github", "workflows", "ecdysis.yml"), "utf8");
    expect(workflow).toContain("config: agent/ecdysis.yml");
    expect(workflow).toContain('- "agent/harness/**"');
    expect(run.stdout).toContain(`created ${join(repo, ".github", "workflows", "ecdysis.yml")}`);
  });

  it("adds a second harness to a repository that has one: its own workflow, the first one untouched", async () => {
    const repo = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    git(repo, "init", "-q");
    expect((await runCli(["init", "agent"], { cwd: repo })).code).toBe(0);
    const first = await readFile(join(repo, ".github", "workflows", "ecdysis.yml"), "utf8");
    const second = await runCli(["init", "support"], { cwd: repo });
    expect(second.code, second.stderr).toBe(0);
    const added = join(repo, ".github", "workflows", "ecdysis-support.yml");
    expect(second.stdout).toContain(`created ${added}`);
    const workflow = await readFile(added, "utf8");
    expect(workflow).toContain("name: ecdysis (support)");
    expect(workflow).toContain("config: support/ecdysis.yml");
    expect(workflow).toContain('- "support/harness/**"');
    const repository = "$" + "{{ github.repository }}";
    expect(workflow).toContain(`group: ecdysis-evolve-support-${repository}`);
    expect(await readFile(join(repo, ".github", "workflows", "ecdysis.yml"), "utf8")).toBe(first);
    expect(first).toContain(`group: ecdysis-evolve-${repository}`);
    // Never overwrites: the same project again is refused, nothing written.
    const again = await runCli(["init", "support"], { cwd: repo });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already exists");
  });

  it("prints `node <its bin>` when no ecdysis is on PATH", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    const run = await runCli(["init"], { cwd: dir, env: { PATH: "/nonexistent" } });
    expect(nextSteps(run.stdout)[0]).toBe(
      `node ${join(repoRoot, "bin", "ecdysis.js")} eval --config ecdysis.yml --out .ecdysis/eval`,
    );
  });

  it("writes a seed harness that tells the model how to state its answer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    expect((await runCli(["init", "p"], { cwd: dir })).code).toBe(0);
    const harness = await loadHarness({ dir: join(dir, "p", "harness"), kind: "builtin" });
    expect(harness.config?.completion.format_instruction).toMatch(/Answer: <value>/);
    expect(harness.config?.completion.answer_pattern).toBe(defaultAnswerPattern);
    expect(renderSystemPrompt(harness)).toContain("## Answer format");
  });

  it("fills in --action and rejects a malformed one, writing nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    const bad = await runCli(["init", "a", "--action", "ecdysis"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("action");
    expect(await readdir(dir)).toEqual([]);
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const run = await runCli(["init", "b", "--action", `me/ecdysis@${sha}`], { cwd: dir });
    expect(run.code).toBe(0);
    const workflow = await readFile(join(dir, "b", ".github", "workflows", "ecdysis.yml"), "utf8");
    expect(usesLines(workflow).map((line) => line.trim())).toEqual([
      `- uses: me/ecdysis@${sha}`,
      `- uses: me/ecdysis@${sha}`,
    ]);
    expect(workflow).not.toContain("OWNER");
    expect(run.stdout).not.toContain("replace");
  });

  it("rejects an unknown world name by the flag, writing nothing (init, sim world, bench)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    for (const argv of [
      ["init", "p", "--world", "quikstart"],
      ["sim", "world", "--world", "quikstart", "--out", "w"],
      ["bench", "--out", "b", "--world", "quickstart,quikstart", "--seeds", "1"],
    ]) {
      const run = await runCli(argv, { cwd: dir });
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stderr).toContain("'--world': unknown world 'quikstart'");
      expect(run.stderr).toContain("bundled worlds are quickstart");
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("uses one action placeholder in init's workflow, the example and docs/workflows", async () => {
    const docs = ["evolve.yml", "gate.yml"].map((name) =>
      join(repoRoot, "docs", "workflows", name),
    );
    for (const path of docs) {
      const lines = usesLines(await readFile(path, "utf8"));
      expect(lines.length, path).toBe(1);
      expect(lines[0], path).toContain(`uses: ${ACTION_PLACEHOLDER}`);
    }
    const example = join(repoRoot, "examples", "quickstart", ".github", "workflows", "ecdysis.yml");
    // If this fails, regenerate the example from exampleWorkflow("ecdysis.yml").
    expect(await readFile(example, "utf8")).toBe(exampleWorkflow("ecdysis.yml"));
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
