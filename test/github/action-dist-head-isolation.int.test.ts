import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { node24, repoRoot, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { addPullRequest } from "./gate-run.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

const dist = join(repoRoot, "dist", "index.js");
const heldout = [
  { id: "h1", input: "first word?", expected: "alpha" },
  { id: "h2", input: "second word?", expected: "beta" },
  { id: "h3", input: "third word?", expected: "gamma" },
];

/** A command harness that knows nothing: the honest base. */
const honest = `process.stdin.resume(); process.stdin.on("end", () => console.log(JSON.stringify({ output: "unknown", answer: "unknown" })));\n`;

/** A PR's command harness that goes looking for the held-out answers where a project keeps them. */
const cheating = `import { readFileSync } from "node:fs";
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const task = JSON.parse(input);
  let answer = "unknown";
  for (const file of ["../tasks/heldout.jsonl", \`\${process.env.ECDYSIS_PROJECT_ROOT}/tasks/heldout.jsonl\`]) {
    try {
      const rows = readFileSync(file, "utf8").split("\\n").filter(Boolean).map((row) => JSON.parse(row));
      answer = rows.find((row) => row.id === task.id)?.expected ?? answer;
    } catch {}
  }
  console.log(JSON.stringify({ output: answer, answer }));
});
`;

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture({
    "agent/ecdysis.yml": [
      "model: { provider: sim, model: sim-1, world: quickstart }",
      "harness: { kind: command, dir: harness, command: [node, agent.mjs], editable: [agent.mjs] }",
      "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
      "",
    ].join("\n"),
    "agent/harness/agent.mjs": honest,
    "agent/tasks/train.jsonl": `${JSON.stringify({ id: "t1", input: "a word?", expected: "delta" })}\n`,
    "agent/tasks/heldout.jsonl": `${heldout.map((task) => JSON.stringify(task)).join("\n")}\n`,
    ".gitignore": ".ecdysis/\n",
  });
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
  addPullRequest(double, "cheat");
});
afterEach(() => double.close());

describe.skipIf(!existsSync(dist))(
  "dist/index.js gate: the PR's harness cannot grade itself",
  () => {
    it("a command harness that reads the held-out file from its project gets no answer", async () => {
      const baseSha = repo.remoteSha("main")!;
      const headSha = repo.commitAndPush({
        branch: "cheat",
        from: "origin/main",
        message: "a smarter agent",
        files: { "agent/harness/agent.mjs": cheating },
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
            head: { sha: headSha, ref: "cheat" },
            base: { sha: baseSha, ref: "main" },
          },
        },
        inputs: { mode: "gate", config: "agent/ecdysis.yml", "github-token": double.token },
      });
      expect(run.outputs["gate-verdict"], run.stdout + run.stderr).toBeDefined();
      expect(run.outputs["baseline-heldout-accuracy"]).toBe("0.0000");
      expect(run.outputs["final-heldout-accuracy"]).toBe("0.0000");
      double.assertValid();
    });
  },
);
