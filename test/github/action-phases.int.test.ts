import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countCachedRollouts } from "../../src/eval/testing/cached-rollouts.js";
import { node24, repoRoot, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";
import { quickstartFiles } from "./quickstart-repo.js";

// Issue #28: the bundled Action runs one phase of a split evolve (the jobs of
// docs/workflows/evolve-matrix.yml), and a job stopped by SIGTERM (cancelled, or at its time
// limit) keeps the rollouts it finished: exit 143, and its re-run pays for none of them again.

const dist = join(repoRoot, "dist", "index.js");
const rolloutsOf = (log: string) => {
  const match = /(\d+) rollouts run, (\d+) cached/.exec(log);
  expect(match, log).not.toBeNull();
  return { run: Number(match?.[1]), cached: Number(match?.[2]) };
};

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture(quickstartFiles("agent"));
  double = await new GitHubApiDouble().start();
});
afterEach(() => double.close());

describe.skipIf(!existsSync(dist))("dist/index.js, phase inputs (real engine, sim model)", () => {
  it("search, then a measure shard cut by SIGTERM: exit 143, finished rollouts kept, the re-run repays none", async () => {
    const cacheDir = join(repo.work, "agent", ".ecdysis", "cache", "rollouts");
    const action = (
      inputs: Record<string, string>,
      onStart?: Parameters<typeof runAction>[0]["onStart"],
    ) =>
      runAction({
        entry: { kind: "dist", node: node24 },
        workspace: repo.work,
        apiUrl: double.url,
        inputs: {
          mode: "evolve",
          config: "agent/ecdysis.yml",
          "max-iterations": "1",
          ...inputs,
        },
        onStart,
      });
    // The search needs no token: it pushes nothing and opens no PR.
    const search = await action({ phase: "search" });
    expect(search.code, search.stdout + search.stderr).toBe(0);
    expect(existsSync(join(repo.work, ".ecdysis", "evolve-run", "search.json"))).toBe(true);
    expect(search.summary).toContain("Ecdysis evolve — search");
    expect(double.state.pulls).toEqual([]);

    const before = await countCachedRollouts(cacheDir);
    const killed = await action({ phase: "measure", shard: "1/2", concurrency: "2" }, (child) => {
      let sent = false; // one signal: polls overlap, and a second signal means "exit now"
      const poll = setInterval(async () => {
        if (sent) return;
        const kept = await countCachedRollouts(cacheDir);
        // Checked again after the await: a poll that started before the signal must not send a
        // second one (the Action exits at once on a second signal, before it reports the first).
        if (sent || kept < before + 5) return;
        sent = true;
        clearInterval(poll);
        child.kill("SIGTERM");
      }, 20);
      child.on("close", () => clearInterval(poll));
    });
    expect(killed.code, killed.stdout + killed.stderr).toBe(143);
    expect(killed.stdout + killed.stderr).toContain("interrupted by SIGTERM");
    expect(killed.stdout + killed.stderr).toContain("re-run the job to resume");
    const finished = (await countCachedRollouts(cacheDir)) - before;
    expect(finished).toBeGreaterThanOrEqual(5);

    const resumed = await action({ phase: "measure", shard: "1/2" });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const again = rolloutsOf(resumed.stdout);
    // It was cut mid-way, and every rollout the re-run paid for is one the cut job had not kept.
    expect(again.run).toBeGreaterThan(0);
    expect(again.cached).toBeGreaterThanOrEqual(finished);
    expect(await countCachedRollouts(cacheDir)).toBe(before + finished + again.run);
  }, 120_000);
});
