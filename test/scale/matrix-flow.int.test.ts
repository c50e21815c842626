import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli, spawnCli } from "../../src/cli/testing/run-cli.js";
import { countCachedRollouts } from "../../src/eval/testing/cached-rollouts.js";
import { comparable } from "../reliability/project.js";

// The flow of docs/workflows/evolve-matrix.yml, as separate processes on separate folders: each
// job starts from a fresh copy of the project, downloads the artifacts it needs, runs one phase
// and uploads a folder. Downloading several artifacts into one folder (download-artifact's
// merge-multiple) is copying their files into it.

const cacheDir = join(".ecdysis", "cache");

async function job(root: string, name: string, project: string): Promise<string> {
  const dir = join(root, name);
  await cp(project, dir, { recursive: true });
  return dir;
}

/** download-artifact into `target` (several artifacts: merged, file by file). */
async function download(artifacts: string[], target: string): Promise<void> {
  await mkdir(target, { recursive: true });
  for (const artifact of artifacts) await cp(artifact, target, { recursive: true });
}

async function evolve(dir: string, args: string[]) {
  const run = await spawnCli(["evolve", "--config", "ecdysis.yml", "--out", "out", ...args], {
    cwd: dir,
  });
  expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0);
  return run;
}

const readResult = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "out", "result.json"), "utf8")) as Record<string, unknown>;

describe("evolve across a matrix of jobs", () => {
  it("search, 4 measure shards and a finish on merged caches give the one-machine result.json", async () => {
    const root = await mkdtemp(join(tmpdir(), "ecdysis-matrix-"));
    const project = join(root, "project");
    await mkdir(project);
    // The quickstart world without its simulated latency: the same run, sooner.
    const world = (await readFile(join(repoRoot, "worlds", "quickstart.yaml"), "utf8")).replace(
      /scale: [\d.]+/,
      "scale: 0",
    );
    await writeFile(join(root, "world.yaml"), world);
    const init = await runCli(["init", ".", "--world", join(root, "world.yaml")], { cwd: project });
    expect(init.code).toBe(0);

    const single = await job(root, "single", project);
    await evolve(single, []);

    const search = await job(root, "search", project);
    await evolve(search, ["--phase", "search"]);
    const searchArtifacts = { out: join(search, "out"), cache: join(search, cacheDir) };

    const shards: string[] = [];
    for (let index = 1; index <= 4; index++) {
      const shard = await job(root, `measure-${index}`, project);
      await download([searchArtifacts.out], join(shard, "out"));
      await download([searchArtifacts.cache], join(shard, cacheDir));
      const run = await evolve(shard, ["--phase", "measure", "--shard", `${index}/4`]);
      expect(run.stdout).toMatch(
        new RegExp(`measure shard ${index}/4: \\d+ train and \\d+ held-out tasks`),
      );
      shards.push(join(shard, cacheDir));
    }

    const finish = await job(root, "finish", project);
    await download([searchArtifacts.out], join(finish, "out"));
    await download(shards, join(finish, cacheDir));
    const merged = await countCachedRollouts(join(finish, cacheDir, "rollouts"));
    const finished = await evolve(finish, ["--phase", "finish"]);
    expect(finished.stderr).toContain("measure shards found: 1/4, 2/4, 3/4, 4/4");
    // The finish measured from the merged caches alone: it ran no rollout.
    expect(await countCachedRollouts(join(finish, cacheDir, "rollouts"))).toBe(merged);

    const one = await readResult(single);
    const matrix = await readResult(finish);
    expect((one.harness as { finalHash: string }).finalHash).not.toBe(
      (one.harness as { seedHash: string }).seedHash,
    );
    expect(comparable(matrix)).toEqual(comparable(one));
  }, 600_000);
});
