import { cp, mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, spawnCli } from "../../src/cli/testing/run-cli.js";
import { countCachedRollouts } from "../../src/eval/testing/cached-rollouts.js";

// Issue #28: a measure shard stopped by SIGTERM (a matrix job cancelled or at its time limit),
// then run again on the same folder: the rollouts it finished are cache hits, none is paid again.

const cacheDir = join(".ecdysis", "cache", "rollouts");
const evolve = (dir: string, args: string[], onStart?: Parameters<typeof spawnCli>[1]["onStart"]) =>
  spawnCli(["evolve", "--config", "ecdysis.yml", "--out", "out", ...args], { cwd: dir, onStart });
const rolloutsRun = (stdout: string) => {
  const match = /(\d+) rollouts run, (\d+) cached/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return { run: Number(match?.[1]), cached: Number(match?.[2]) };
};

it("a measure shard cut by SIGTERM exits 143 and its re-run pays for no rollout it finished", async () => {
  const root = await mkdtemp(join(tmpdir(), "ecdysis-measure-interrupt-"));
  const project = join(root, "project");
  await mkdir(project);
  // The quickstart world with its simulated latency, so the shard is cut mid-way.
  expect((await runCli(["init", ".", "--world", "quickstart"], { cwd: project })).code).toBe(0);
  const search = await evolve(project, ["--phase", "search"]);
  expect(search.code, search.stderr).toBe(0);
  const reference = join(root, "reference");
  await cp(project, reference, { recursive: true });
  const uninterrupted = await evolve(reference, ["--phase", "measure", "--shard", "1/2"]);
  expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
  const whole = rolloutsRun(uninterrupted.stdout);
  expect(whole.run).toBeGreaterThan(10);

  const before = await countCachedRollouts(join(project, cacheDir));
  const killed = await evolve(project, ["--phase", "measure", "--shard", "1/2"], (child) => {
    let sent = false; // one signal: polls overlap, and a second signal means "exit now"
    const poll = setInterval(async () => {
      if ((await countCachedRollouts(join(project, cacheDir))) < before + 5 || sent) return;
      sent = true;
      clearInterval(poll);
      child.kill("SIGTERM");
    }, 20);
    child.on("close", () => clearInterval(poll));
  });
  expect(killed.code, killed.stderr).toBe(143);
  expect(killed.stderr).toContain("interrupted by SIGTERM");
  expect(killed.stderr).toContain("re-run the same command to resume");
  const finished = (await countCachedRollouts(join(project, cacheDir))) - before;
  expect(finished).toBeGreaterThanOrEqual(5);
  expect(finished).toBeLessThan(whole.run);

  const resumed = await evolve(project, ["--phase", "measure", "--shard", "1/2"]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const again = rolloutsRun(resumed.stdout);
  expect(again.run).toBe(whole.run - finished);
  expect(again.run + again.cached).toBe(whole.run + whole.cached);
  expect(await countCachedRollouts(join(project, cacheDir))).toBe(before + whole.run);
}, 600_000);
