import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { updateHarnessBranch } from "../../src/github/branch-update.js";
import { Git, type GitResult } from "../../src/github/git.js";
import { snapshotSeed } from "../../src/github/harness-commits.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

/**
 * Real git whose first `push` is preceded by another run's push to the same branch: the race two
 * evolve runs of one harness can run (no concurrency group), made deterministic.
 */
class RacingGit extends Git {
  constructor(
    options: ConstructorParameters<typeof Git>[0],
    private readonly race: { before: () => void; done: boolean },
  ) {
    super(options);
  }

  override at(cwd: string): Git {
    return Object.setPrototypeOf(super.at(cwd), RacingGit.prototype);
  }

  override async exec(args: string[]): Promise<GitResult> {
    if (args[0] === "push" && !this.race.done) {
      this.race.done = true;
      this.race.before();
    }
    return super.exec(args);
  }
}

function evolvedDir(repo: GitFixture, rules: string): string {
  const dir = join(repo.root, `evolved-${rules.length}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "rules.md"), rules);
  return dir;
}

describe("two evolve runs racing for one branch (real git)", () => {
  it("the loser says so in one line and pushes nothing over the winner", async () => {
    const repo = createGitFixture();
    const branch = "ecdysis/agent-harness";
    let winner = "";
    const git = new RacingGit(
      { cwd: repo.work },
      {
        done: false,
        before: () => {
          winner = repo.commitAndPush({
            files: { "agent/harness/rules.md": "- the other run's rules\n" },
            message: "other run\n\nEcdysis-Run: other",
            branch,
            from: "origin/main",
          });
        },
      },
    );
    const seed = await snapshotSeed({ git, harnessPath: "agent/harness" });
    const update = updateHarnessBranch({
      git,
      base: "main",
      branch,
      harnessPath: "agent/harness",
      seed,
      evolvedDir: evolvedDir(repo, "- Answer briefly.\n- lima is the capital of Peru.\n"),
      runId: "mine",
      message: "Ecdysis: evolved harness",
    });
    await expect(update).rejects.toThrow(
      /^Another run pushed `ecdysis\/agent-harness` while this one was running, so this run's result was not pushed/,
    );
    await update.catch((error: Error) => expect(error.message).not.toContain("\n"));
    expect(repo.remoteSha(branch)).toBe(winner);
  });
});
