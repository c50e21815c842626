import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { node24, repoRoot, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

const dist = join(repoRoot, "dist", "index.js");
const quickstart = join(repoRoot, "examples", "quickstart");

/** The quickstart project (sim world inside the config folder, so the gate can copy it from base). */
function quickstartFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of [
    "harness/harness.yaml",
    "harness/knowledge.md",
    "harness/rules.md",
    "harness/system.md",
    "tasks/train.jsonl",
    "tasks/heldout.jsonl",
  ]) {
    files[`agent/${name}`] = readFileSync(join(quickstart, name), "utf8");
  }
  files["agent/world.yaml"] = readFileSync(join(repoRoot, "worlds", "quickstart.yaml"), "utf8");
  files["agent/ecdysis.yml"] = readFileSync(join(quickstart, "ecdysis.yml"), "utf8").replace(
    "../../worlds/quickstart.yaml",
    "world.yaml",
  );
  files[".gitignore"] = ".ecdysis/\n";
  return files;
}

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture(quickstartFiles());
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(() => double.close());

describe.skipIf(!existsSync(dist))(
  "dist/index.js (real engine, sim model, real git, API double)",
  () => {
    it("evolve under Node 24: one PR, a re-run keeps one PR", async () => {
      const inputs = {
        mode: "evolve",
        config: "agent/ecdysis.yml",
        "github-token": double.token,
        labels: "ecdysis",
      };
      const first = await runAction({
        entry: { kind: "dist", node: node24 },
        workspace: repo.work,
        apiUrl: double.url,
        inputs,
      });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.outputs["pull-request-operation"]).toBe("created");
      expect(Number(first.outputs["final-heldout-accuracy"])).toBeGreaterThan(
        Number(first.outputs["baseline-heldout-accuracy"]),
      );
      expect(first.summary).toContain("# Ecdysis");
      const branch = first.outputs.branch;
      expect(repo.remoteSha(branch)).toBeDefined();
      expect(double.state.pulls[0].body).toContain("ecdysis-metadata");
      expect(double.state.statuses.at(-1)).toMatchObject({
        state: "success",
        context: "ecdysis/heldout (agent)",
        sha: repo.remoteSha(branch),
      });
      const body = double.state.pulls[0].body;
      const second = await runAction({
        entry: { kind: "dist", node: node24 },
        workspace: repo.work,
        apiUrl: double.url,
        inputs,
      });
      expect(second.code, second.stdout).toBe(0);
      // A cached replay: same branch, so nothing to update; the first run's cost stays in the PR.
      expect(second.outputs["pull-request-operation"]).toBe("none");
      expect(double.state.pulls).toHaveLength(1);
      expect(double.state.pulls[0].body).toBe(body);
      double.assertValid();
    });

    it("gate: a head harness that lowers held-out accuracy fails and posts a failing status; edited held-out tasks do not help", async () => {
      double.state.pulls.push({
        number: 1,
        state: "open",
        title: "worse",
        body: "",
        head: "worse",
        base: "main",
        draft: false,
        labels: [],
        reviewers: [],
        teamReviewers: [],
        createdAt: "2026-01-01T00:00:00Z",
        updatedAt: "2026-01-01T00:00:00Z",
      });
      // Base: the harness the engine evolves from the seed (via the bundled CLI), merged to main.
      const seed = readFileSync(join(repo.work, "agent", "harness", "rules.md"), "utf8");
      const seedSystem = readFileSync(join(repo.work, "agent", "harness", "system.md"), "utf8");
      const seedYaml = readFileSync(join(repo.work, "agent", "harness", "harness.yaml"), "utf8");
      const out = mkdtempSync(join(tmpdir(), "ecdysis-evolved-"));
      await new Promise<void>((resolve, reject) =>
        execFile(
          node24,
          [
            join(repoRoot, "dist", "cli.js"),
            "evolve",
            "--config",
            join(repo.work, "agent", "ecdysis.yml"),
            "--out",
            out,
          ],
          (error) => (error ? reject(error) : resolve()),
        ),
      );
      const evolved = (name: string) => readFileSync(join(out, "harness", name), "utf8");
      const baseSha = repo.commitAndPush({
        branch: "main",
        from: "origin/main",
        message: "adopt the evolved harness",
        files: {
          "agent/harness/rules.md": evolved("rules.md"),
          "agent/harness/system.md": evolved("system.md"),
          "agent/harness/harness.yaml": evolved("harness.yaml"),
        },
      });
      // Head: back to the seed harness, and held-out tasks rewritten to two easy ones.
      const headSha = repo.commitAndPush({
        branch: "worse",
        from: "origin/main",
        message: "revert the harness, rewrite the held-out tasks",
        files: {
          "agent/harness/system.md": seedSystem,
          "agent/harness/rules.md": seed,
          "agent/harness/harness.yaml": seedYaml,
          "agent/tasks/heldout.jsonl": readFileSync(
            join(quickstart, "tasks", "heldout.jsonl"),
            "utf8",
          )
            .split("\n")
            .slice(0, 2)
            .join("\n"),
        },
      });
      repo.git(["checkout", "--quiet", "--detach", headSha]);
      const run = await runAction({
        entry: { kind: "dist", node: node24 },
        workspace: repo.work,
        apiUrl: double.url,
        eventName: "pull_request",
        sha: headSha,
        event: {
          pull_request: {
            number: 1,
            head: { sha: headSha, ref: "worse" },
            base: { sha: baseSha, ref: "main" },
          },
        },
        inputs: { mode: "gate", config: "agent/ecdysis.yml", "github-token": double.token },
      });
      expect(run.outputs["gate-verdict"], run.stdout + run.stderr).toBe("fail");
      expect(run.code).not.toBe(0);
      expect(double.state.statuses.filter((status) => status.sha === headSha).at(-1)?.state).toBe(
        "failure",
      );
      expect(double.state.comments[0].body).toContain("<!-- ecdysis-gate agent -->");
      double.assertValid();
    });
  },
);

describe("check-dist", () => {
  it("fails on a stale bundle and names the file", async () => {
    const copy = mkdtempSync(join(tmpdir(), "ecdysis-stale-"));
    const build = (...args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [join(repoRoot, "scripts", "build.mjs"), ...args],
          { env: { ...process.env, ECDYSIS_DIST_DIR: copy } },
          (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
        ),
      );
    // A fresh bundle in a scratch dist/ (the committed one may lag behind others' edits).
    expect((await build()).code).toBe(0);
    expect((await build("--check")).code).toBe(0);
    writeFileSync(
      join(copy, "index.js"),
      `${readFileSync(join(copy, "index.js"), "utf8")}\n// stale\n`,
    );
    const result = await build("--check");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("index.js");
    expect(result.stderr).not.toContain("cli.js");
  });
});
