import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  changeFingerprint,
  changeMarker,
  fingerprintIn,
} from "../../src/github/change-fingerprint.js";
import { Git } from "../../src/github/git.js";
import { evolvedCommit } from "../../src/github/harness-commits.js";
import { createGitFixture } from "./git-fixture.js";

/** The fingerprint of `rules` written over the seed's harness, on the fixture's current main. */
async function fingerprintOf(work: string, rules: string): Promise<string> {
  const git = new Git({ cwd: work });
  const evolvedDir = join(work, "..", `evolved-${rules.length}`);
  mkdirSync(evolvedDir, { recursive: true });
  writeFileSync(join(evolvedDir, "rules.md"), rules);
  const seed = (await git.run(["rev-parse", "HEAD"])).trim();
  const evolved = await evolvedCommit({ git, seed, harnessPath: "agent/harness", evolvedDir });
  return changeFingerprint({ git, seed, evolved, harnessPath: "agent/harness" });
}

describe("changeFingerprint (real git)", () => {
  it("the same edit is the same change on a base that moved elsewhere in the file; another edit is not", async () => {
    const repo = createGitFixture();
    const seedRules = "- Answer briefly.\n- paris is the capital of France.\n";
    const edit = (rules: string) => `${rules}- lima is the capital of Peru.\n`;
    const first = await fingerprintOf(repo.work, edit(seedRules));
    repo.commitAndPush({
      files: { "agent/harness/rules.md": `- Be polite.\n${seedRules}` },
      message: "a human rule on top",
      branch: "main",
    });
    const moved = `- Be polite.\n${seedRules}`;
    expect(await fingerprintOf(repo.work, edit(moved))).toBe(first);
    expect(await fingerprintOf(repo.work, `${moved}- rome is the capital of Italy.\n`)).not.toBe(
      first,
    );
    expect(fingerprintIn(`intro\n${changeMarker(first)}\nbody`)).toBe(first);
    expect(fingerprintIn("no marker")).toBeUndefined();
  });
});
