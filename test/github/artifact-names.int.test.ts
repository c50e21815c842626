import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture, projectFiles } from "./git-fixture.js";

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  const one = projectFiles();
  const two = Object.fromEntries(
    Object.entries(one)
      .filter(([path]) => path.startsWith("agent/"))
      .map(([path, content]) => [path.replace(/^agent\//, "agent2/"), content]),
  );
  repo = createGitFixture({ ...one, ...two });
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(() => double.close());

describe("artifacts (fake engine, fake artifact service)", () => {
  it("two harnesses evolved in one workflow run upload two artifacts, no 409", async () => {
    const service = mkdtempSync(join(tmpdir(), "ecdysis-artifacts-"));
    const runs = [];
    for (const config of ["agent/ecdysis.yml", "agent2/ecdysis.yml"]) {
      runs.push(
        await runAction({
          entry: {
            kind: "fake-ts",
            scenario: { edits: { "rules.md": "- lima is the capital of Peru.\n- paris.\n" } },
          },
          workspace: repo.work,
          apiUrl: double.url,
          env: { ECDYSIS_FAKE_ARTIFACTS: service },
          inputs: { mode: "evolve", config, "github-token": double.token },
        }),
      );
    }
    for (const run of runs) {
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).not.toMatch(/artifact upload failed|name .* is taken/);
    }
    expect(readdirSync(service).sort()).toEqual([
      "ecdysis-evolve-agent-harness-4242-1.json",
      "ecdysis-evolve-agent2-harness-4242-1.json",
    ]);
    expect(double.state.pulls.map((pull) => pull.head).sort()).toEqual([
      "ecdysis/agent-harness",
      "ecdysis/agent2-harness",
    ]);
  });
});
