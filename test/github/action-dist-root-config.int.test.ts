import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { node24, repoRoot, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";
import { evolveWithCli, quickstartFiles } from "./quickstart-repo.js";

const dist = join(repoRoot, "dist", "index.js");

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  // `ecdysis.yml` at the repository root: the documented default and what `ecdysis init` writes.
  repo = createGitFixture(quickstartFiles(""));
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(() => double.close());

describe.skipIf(!existsSync(dist))("dist/index.js with ecdysis.yml at the repository root", () => {
  it("evolve (default config input) pushes ecdysis/harness and opens its PR", async () => {
    const run = await runAction({
      entry: { kind: "dist", node: node24 },
      workspace: repo.work,
      apiUrl: double.url,
      inputs: { mode: "evolve", "github-token": double.token },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({
      "pull-request-operation": "created",
      branch: "ecdysis/harness",
    });
    const sha = repo.remoteSha("ecdysis/harness");
    expect(sha).toBeDefined();
    const changed = repo
      .git(["diff", "--name-only", `main...${sha}`], repo.origin)
      .trim()
      .split("\n");
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((path) => path.startsWith("harness/"))).toBe(true);
    expect(double.state.pulls).toMatchObject([{ head: "ecdysis/harness", base: "main" }]);
    double.assertValid();
    // The run says which Ecdysis and which commit made it (the run key records the version too).
    const result = JSON.parse(
      readFileSync(join(dirname(run.outputs["report-path"] ?? ""), "result.json"), "utf8"),
    );
    const version = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version;
    expect(result.run.ecdysisVersion).toBe(version);
    expect(result.run.git?.commit).toBe(repo.git(["rev-parse", "HEAD"]).trim());
  });

  it("gate (default config input) copies the base from the root and posts its verdict", async () => {
    double.state.pulls.push({
      number: 1,
      state: "open",
      title: "better harness",
      body: "",
      head: "better",
      base: "main",
      draft: false,
      labels: [],
      reviewers: [],
      teamReviewers: [],
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    });
    const out = await evolveWithCli(join(repo.work, "ecdysis.yml"));
    const evolved = (name: string) => readFileSync(join(out, "harness", name), "utf8");
    const baseSha = repo.remoteSha("main")!;
    const headSha = repo.commitAndPush({
      branch: "better",
      from: "origin/main",
      message: "adopt the evolved harness",
      files: {
        "harness/rules.md": evolved("rules.md"),
        "harness/system.md": evolved("system.md"),
        "harness/harness.yaml": evolved("harness.yaml"),
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
          head: { sha: headSha, ref: "better" },
          base: { sha: baseSha, ref: "main" },
        },
      },
      inputs: { mode: "gate", "github-token": double.token },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs["gate-verdict"]).toBe("pass");
    expect(Number(run.outputs["final-heldout-accuracy"])).toBeGreaterThan(
      Number(run.outputs["baseline-heldout-accuracy"]),
    );
    expect(double.state.statuses.filter((status) => status.sha === headSha).at(-1)).toMatchObject({
      state: "success",
      context: "ecdysis/heldout",
    });
    expect(double.state.comments).toHaveLength(1);
    double.assertValid();
  });
});
