import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseHarnessYaml } from "../config/harness-yaml.js";
import { countCachedRollouts } from "../eval/testing/cached-rollouts.js";
import type { EvalResult } from "../eval/types.js";
import { setYamlPath } from "../harness/yaml-set.js";
import { loadWorld, startSimServer } from "../sim/index.js";
import { runCli, spawnCli } from "./testing/run-cli.js";

let project: string;

async function readResult(dir: string, name = "eval.json"): Promise<EvalResult> {
  return JSON.parse(await readFile(join(dir, name), "utf8")) as EvalResult;
}

/** A result without its cost (time and cache hits legitimately differ between equivalent runs). */
function comparable(result: EvalResult) {
  const { cost: _cost, ...rest } = result;
  return rest;
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "ecdysis-eval-int-"));
  const init = await runCli(["init", ".", "--world", "quickstart"], { cwd: project });
  expect(init.code).toBe(0);
});

describe("ecdysis eval (end to end on the sim)", () => {
  it("runs as a child process, writes eval.json, records and a summary; a rerun is served from the cache", async () => {
    const first = await spawnCli(
      ["eval", "--config", "ecdysis.yml", "--split", "heldout", "--out", "out"],
      { cwd: project },
    );
    expect(first.stderr).toContain("heldout: 40 rollouts…");
    expect(first.stderr).toMatch(/heldout: \d+\/40 passed = \d+\.\d% in /);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^heldout: accuracy \d+\.\d% \(\d+\/40\), 95% CI/);
    const result = await readResult(join(project, "out"));
    expect(result.n).toBe(40);
    expect(result.accuracy).toBeGreaterThan(0.1);
    expect(result.accuracy).toBeLessThan(0.8);
    const records = (await readFile(join(project, "out", "records.jsonl"), "utf8"))
      .trim()
      .split("\n");
    expect(records).toHaveLength(40);
    const again = await spawnCli(
      ["eval", "--config", "ecdysis.yml", "--split", "heldout", "--out", "out-again"],
      { cwd: project },
    );
    expect(again.code).toBe(0);
    const cached = await readResult(join(project, "out-again"));
    expect(cached.cost).toMatchObject({ rollouts: 0, cachedRollouts: 40, llmCalls: 0 });
    expect(comparable(cached)).toEqual(comparable(result));
  });

  it("scores a hand-edited harness that drops init's answer-format instruction lower on both splits", async () => {
    await cp(join(project, "harness"), join(project, "harness-edited"), { recursive: true });
    const path = join(project, "harness-edited", "harness.yaml");
    const yaml = await readFile(path, "utf8");
    expect(parseHarnessYaml(path, yaml).completion.format_instruction).toMatch(/Answer: <value>/);
    const dropped = setYamlPath({ text: yaml, path: "completion.format_instruction", value: "" });
    if (!dropped.ok) throw new Error(dropped.reason);
    await writeFile(path, dropped.text);
    const seed = await runCli(
      ["eval", "--config", "ecdysis.yml", "--split", "all", "--out", "seed"],
      { cwd: project },
    );
    const edited = await runCli(
      [
        "eval",
        "--config",
        "ecdysis.yml",
        "--split",
        "all",
        "--harness",
        "harness-edited",
        "--out",
        "edited",
      ],
      { cwd: project },
    );
    expect([seed.code, edited.code]).toEqual([0, 0]);
    for (const split of ["train", "heldout"]) {
      const before = await readResult(join(project, "seed"), `eval-${split}.json`);
      const after = await readResult(join(project, "edited"), `eval-${split}.json`);
      expect(after.harnessHash).not.toBe(before.harnessHash);
      expect(before.accuracy - after.accuracy).toBeGreaterThan(0.05);
    }
    const combined = await readResult(join(project, "seed"));
    expect(combined.split).toBe("all");
    expect(combined.n).toBe(80);
  });

  it("--limit runs a deterministic subset over every category; --concurrency caps rollouts in flight", async () => {
    const world = await loadWorld("quickstart");
    const server = await startSimServer({ world, latencyScale: 0.2 });
    // A loopback proxy in front of the sim that counts requests in flight.
    let inFlight = 0;
    let peak = 0;
    const proxy = createServer(async (request, response) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${server.url}${request.url?.replace(/^\/v1/, "")}`, {
        method: request.method,
        headers: { "content-type": "application/json" },
        body: request.method === "POST" ? Buffer.concat(chunks) : undefined,
      });
      response.writeHead(upstream.status, { "content-type": "application/json" });
      response.end(Buffer.from(await upstream.arrayBuffer()));
      inFlight -= 1;
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as AddressInfo).port;
    try {
      const dir = await mkdtemp(join(tmpdir(), "ecdysis-limit-"));
      for (const name of ["harness", "tasks"])
        await cp(join(project, name), join(dir, name), { recursive: true });
      await writeFile(
        join(dir, "ecdysis.yml"),
        `model:\n  provider: openai\n  baseUrl: http://127.0.0.1:${port}/v1\n  model: sim-1\n  apiKeyEnv: SIM_KEY\nharness:\n  dir: harness\ntasks:\n  train: tasks/train.jsonl\n  heldout: tasks/heldout.jsonl\nconcurrency: 8\n`,
      );
      const argv = ["eval", "--config", "ecdysis.yml", "--limit", "7", "--concurrency", "1"];
      const first = await runCli([...argv, "--out", "a"], { cwd: dir, env: { SIM_KEY: "x" } });
      expect(first.code, first.stderr).toBe(0);
      expect(peak).toBe(1);
      const result = await readResult(join(dir, "a"));
      expect(result.n).toBe(7);
      expect(Object.keys(result.byCategory)).toHaveLength(5);
      const again = await runCli(
        ["eval", "--config", "ecdysis.yml", "--limit", "7", "--out", "b"],
        {
          cwd: dir,
          env: { SIM_KEY: "x" },
        },
      );
      expect(again.code).toBe(0);
      expect((await readResult(join(dir, "b"))).tasks.map((task) => task.taskId)).toEqual(
        result.tasks.map((task) => task.taskId),
      );
      const bad = await runCli(["eval", "--config", "ecdysis.yml", "--limit", "0", "--out", "c"], {
        cwd: dir,
      });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--limit");
    } finally {
      proxy.close();
      await server.close();
    }
  });

  it("merges three shards into the unsharded result", async () => {
    const cacheFree = await mkdtemp(join(tmpdir(), "ecdysis-shards-"));
    for (const name of ["ecdysis.yml", "harness", "tasks"])
      await cp(join(project, name), join(cacheFree, name), { recursive: true });
    const whole = await runCli(
      ["eval", "--config", "ecdysis.yml", "--split", "train", "--samples", "3", "--out", "whole"],
      { cwd: cacheFree },
    );
    expect(whole.code).toBe(0);
    const shardDirs: string[] = [];
    for (const index of [1, 2, 3]) {
      // Each shard in its own copy with its own cache, as matrix jobs would run.
      const copy = await mkdtemp(join(tmpdir(), `ecdysis-shard-${index}-`));
      for (const name of ["ecdysis.yml", "harness", "tasks"])
        await cp(join(project, name), join(copy, name), { recursive: true });
      const run = await runCli(
        [
          "eval",
          "--config",
          "ecdysis.yml",
          "--split",
          "train",
          "--samples",
          "3",
          "--shard",
          `${index}/3`,
          "--out",
          "shard",
        ],
        { cwd: copy },
      );
      expect(run.code).toBe(0);
      shardDirs.push(join(copy, "shard"));
    }
    const sizes = await Promise.all(shardDirs.map(async (dir) => (await readResult(dir)).n));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(40);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    const merged = await runCli(["merge", "--out", join(cacheFree, "merged"), ...shardDirs], {
      cwd: cacheFree,
    });
    expect(merged.code).toBe(0);
    const mergedResult = await readResult(join(cacheFree, "merged"));
    const wholeResult = await readResult(join(cacheFree, "whole"));
    expect(comparable(mergedResult)).toEqual(comparable(wholeResult));
    const { wallMs: _mergedWall, ...mergedCost } = mergedResult.cost;
    const { wallMs: _wholeWall, ...wholeCost } = wholeResult.cost;
    expect(mergedCost).toEqual(wholeCost);
    expect(await countCachedRollouts(join(cacheFree, "merged", "cache", "rollouts"))).toBe(120);
    const keys = (text: string) =>
      text
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { key: string }).key);
    expect(keys(await readFile(join(cacheFree, "merged", "records.jsonl"), "utf8"))).toEqual(
      keys(await readFile(join(cacheFree, "whole", "records.jsonl"), "utf8")),
    );
    // Merging a shard with itself is refused.
    const twice = await runCli(["merge", "--out", "bad", shardDirs[0], shardDirs[0]], {
      cwd: cacheFree,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("is shard 1/3 again");
    // Merging only some of the shards is refused, naming the missing ones; nothing is written.
    const partial = await runCli(["merge", "--out", "partial", shardDirs[0], shardDirs[2]], {
      cwd: cacheFree,
    });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain("shard 2/3 missing");
    await expect(readdir(join(cacheFree, "partial"))).rejects.toThrow();
  });

  it("resumes a killed run without calling the model again for finished rollouts", async () => {
    const world = await loadWorld("quickstart");
    const server = await startSimServer({ world, latencyScale: 0 });
    const slow = await startSimServer({ world, faults: { stallEvery: 1, stallMs: 150 } });
    try {
      const dir = await mkdtemp(join(tmpdir(), "ecdysis-resume-"));
      for (const name of ["harness", "tasks"])
        await cp(join(project, name), join(dir, name), { recursive: true });
      const config = (url: string) =>
        `model:\n  provider: openai\n  baseUrl: ${url}\n  model: sim-1\n  apiKeyEnv: SIM_KEY\nharness:\n  dir: harness\ntasks:\n  train: tasks/train.jsonl\n  heldout: tasks/heldout.jsonl\nconcurrency: 2\n`;
      await writeFile(join(dir, "slow.yml"), config(slow.url));
      await writeFile(join(dir, "fast.yml"), config(server.url));
      const cacheDir = join(dir, ".ecdysis", "cache", "rollouts");
      const killed = await spawnCli(["eval", "--config", "slow.yml", "--out", "out"], {
        cwd: dir,
        env: { SIM_KEY: "placeholder" },
        onStart: (child) => {
          const poll = setInterval(async () => {
            if ((await countCachedRollouts(cacheDir)) >= 5) {
              clearInterval(poll);
              child.kill("SIGKILL");
            }
          }, 20);
          child.on("close", () => clearInterval(poll));
        },
      });
      expect(killed.signal).toBe("SIGKILL");
      const finished = await countCachedRollouts(cacheDir);
      expect(finished).toBeGreaterThanOrEqual(5);
      expect(finished).toBeLessThan(40);
      // Same model name, params and harness: the fast endpoint serves the same rollouts.
      const before = server.requests();
      const resumed = await spawnCli(["eval", "--config", "fast.yml", "--out", "out"], {
        cwd: dir,
        env: { SIM_KEY: "placeholder" },
      });
      expect(resumed.code).toBe(0);
      const result = await readResult(join(dir, "out"));
      expect(result.cost.cachedRollouts).toBe(finished);
      expect(result.cost.rollouts).toBe(40 - finished);
      // Every call but the one-token endpoint check (made before the first rollout) is a rollout's.
      const checks = 1;
      expect(server.requests() - before - checks).toBe(result.cost.llmCalls);
      const records = (await readFile(join(dir, "out", "records.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map(
          (line) => JSON.parse(line) as { cached: boolean; trace: { usage: { llmCalls: number } } },
        );
      const uncachedCalls = records
        .filter((record) => !record.cached)
        .reduce((sum, record) => sum + record.trace.usage.llmCalls, 0);
      expect(server.requests() - before - checks).toBe(uncachedCalls);
    } finally {
      await server.close();
      await slow.close();
    }
  });
});
