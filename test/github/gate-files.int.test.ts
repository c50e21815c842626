import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { addPullRequest, openPr, runGate } from "./gate-run.js";
import { createGitFixture, type GitFixture, projectFiles } from "./git-fixture.js";

// Bytes that are not UTF-8 (a PNG header, a lone 0xff, a NUL): decoding them would corrupt them.
const binary = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0xc3, 0x28,
]);
const script = "#!/bin/sh\necho scored\n";

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture({
    ...projectFiles(),
    "agent/harness/icon.png": binary,
    "agent/score.sh": script,
  });
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
  addPullRequest(double);
});
afterEach(() => double.close());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

describe("the gate's copies (fake engine, real git, API double)", () => {
  it("copies the base byte-exact with its executable bits, and leaves no copy behind", async () => {
    const pr = openPr(repo, { "agent/harness/rules.md": "- paris is the capital of France.\n" });
    const temp = join(repo.root, "system-temp");
    const runnerTemp = join(repo.root, "runner-temp");
    mkdirSync(temp);
    mkdirSync(runnerTemp);
    const run = await runGate({
      repo,
      double,
      pr,
      env: { TMPDIR: temp, RUNNER_TEMP: runnerTemp },
    });
    expect(run.code, run.stdout).toBe(0);
    const inputs = JSON.parse(
      readFileSync(join(dirname(run.outputs["report-path"]), "gate-inputs.json"), "utf8"),
    );
    expect(inputs.base["harness/icon.png"].sha256).toBe(sha256(binary));
    expect(inputs.base["score.sh"]).toEqual({ sha256: sha256(script), mode: 0o755 });
    expect(inputs.base["tasks/heldout.jsonl"]).toBeDefined();
    // Nothing of the base (held-out answers included) is left in either temp folder.
    const leftovers = [...filesUnder(temp), ...filesUnder(runnerTemp)];
    expect(leftovers.filter((file) => /heldout|score\.sh|icon\.png/.test(file))).toEqual([]);
    double.assertValid();
  });

  it("runs the head harness from a copy outside the workspace that holds no task file", async () => {
    const pr = openPr(repo, { "agent/harness/rules.md": "- paris is the capital of France.\n" });
    const run = await runGate({ repo, double, pr });
    expect(run.code, run.stdout).toBe(0);
    const inputs = JSON.parse(
      readFileSync(join(dirname(run.outputs["report-path"]), "gate-inputs.json"), "utf8"),
    );
    expect(relative(repo.work, inputs.headHarnessDir).startsWith("..")).toBe(true);
    expect(Object.keys(inputs.head).sort()).toEqual(["harness.yaml", "icon.png", "rules.md"]);
    expect(inputs.head["icon.png"].sha256).toBe(sha256(binary));
    // The project root the head runs in holds its harness and nothing else: no task file.
    expect(Object.keys(inputs.headProjectRoot).sort()).toEqual([
      "agent/harness/harness.yaml",
      "agent/harness/icon.png",
      "agent/harness/rules.md",
    ]);
    double.assertValid();
  });
});
