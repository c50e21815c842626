import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const identity = {
  GIT_AUTHOR_NAME: "Fixture Human",
  GIT_AUTHOR_EMAIL: "human@example.com",
  GIT_COMMITTER_NAME: "Fixture Human",
  GIT_COMMITTER_EMAIL: "human@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** A bare `origin` (file-path remote) and a work clone, as a runner's checkout would be. */
export interface GitFixture {
  root: string;
  origin: string;
  work: string;
  git(args: string[], cwd?: string): string;
  /** Head sha of a branch on the remote, undefined when it does not exist. */
  remoteSha(branch: string): string | undefined;
  /** Write files in the work clone, commit them as a human and push to `branch`. */
  commitAndPush(options: {
    files: FixtureFiles;
    message: string;
    branch: string;
    from?: string;
  }): string;
}

/** The project files of a minimal Ecdysis repository (config, harness, held-out tasks). */
export function projectFiles(
  options: { rules?: string; heldout?: { input: string; expected: string }[] } = {},
): Record<string, string> {
  const heldout = options.heldout ?? [
    { input: "capital of France?", expected: "paris" },
    { input: "capital of Peru?", expected: "lima" },
    { input: "capital of Italy?", expected: "rome" },
    { input: "capital of Chad?", expected: "ndjamena" },
  ];
  return {
    "agent/ecdysis.yml": [
      "model: { provider: openai, baseUrl: 'http://127.0.0.1:9/v1', model: fake }",
      "harness: { dir: harness }",
      "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
      "gate: { statusContext: ecdysis/heldout }",
      "",
    ].join("\n"),
    "agent/harness/harness.yaml": "agent_loop: { style: react, max_steps: 4 }\n",
    "agent/harness/rules.md":
      options.rules ?? "- Answer briefly.\n- paris is the capital of France.\n",
    "agent/tasks/train.jsonl": '{"id":"t1","input":"capital of Spain?","expected":"madrid"}\n',
    "agent/tasks/heldout.jsonl": `${heldout.map((task, index) => JSON.stringify({ id: `h${index}`, ...task })).join("\n")}\n`,
    "README.md": "# demo\n",
  };
}

/** File contents by path; a `#!` text file is written executable (like a script in a repo). */
export type FixtureFiles = Record<string, string | Buffer>;

function write(dir: string, files: FixtureFiles): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
    if (typeof content === "string" && content.startsWith("#!")) chmodSync(join(dir, path), 0o755);
  }
}

/** Create the bare remote and the clone, with `files` committed on `main`. */
export function createGitFixture(files: FixtureFiles = projectFiles()): GitFixture {
  const root = mkdtempSync(join(tmpdir(), "ecdysis-gh-"));
  const origin = join(root, "origin.git");
  const work = join(root, "work");
  const git = (args: string[], cwd = work) =>
    execFileSync("git", args, { cwd, env: { ...process.env, ...identity }, encoding: "utf8" });
  git(["init", "--quiet", "--bare", "-b", "main", origin], root);
  git(["clone", "--quiet", origin, work], root);
  git(["checkout", "--quiet", "-B", "main"]);
  write(work, files);
  git(["add", "-A"]);
  git(["commit", "--quiet", "-m", "initial"]);
  git(["push", "--quiet", "origin", "main"]);
  return {
    root,
    origin,
    work,
    git,
    remoteSha(branch) {
      try {
        return git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], origin).trim();
      } catch {
        return undefined;
      }
    },
    commitAndPush({ files: changes, message, branch, from }) {
      git(["fetch", "--quiet", "origin"]);
      git([
        "checkout",
        "--quiet",
        "-B",
        `local-${branch.replace(/\//g, "-")}`,
        from ?? `origin/${branch}`,
      ]);
      write(work, changes);
      git(["add", "-A"]);
      git(["commit", "--quiet", "-m", message]);
      git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
      const sha = git(["rev-parse", "HEAD"]).trim();
      git(["checkout", "--quiet", "main"]);
      git(["reset", "--quiet", "--hard", "origin/main"]);
      return sha;
    },
  };
}
