import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RolloutCache } from "./rollout-cache.js";
import { rolloutKey } from "./rollout-key.js";
import { numberedTasks } from "./testing/fixtures.js";
import type { RolloutRecord } from "./types.js";

function record(key: string, taskId = "q1"): RolloutRecord {
  return {
    key,
    taskId,
    category: "odd",
    harnessHash: "h",
    model: "m",
    sampleIndex: 0,
    output: "Answer: 1",
    answer: "1",
    verdict: { pass: true, score: 1, reason: "pass" },
    trace: {
      steps: [],
      events: [],
      output: "Answer: 1",
      answer: "1",
      usage: { promptTokens: 1, completionTokens: 1, llmCalls: 1, costUsd: 0 },
      latencyMs: 3,
    },
    latencyMs: 3,
    cached: false,
  };
}

describe("rolloutKey", () => {
  const [task] = numberedTasks(1);
  const base = {
    harnessHash: "h1",
    task,
    model: "m",
    params: { temperature: 0, maxTokens: 10 },
    sampleIndex: 0,
  };

  it("is stable and changes with every part", () => {
    const key = rolloutKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(rolloutKey({ ...base, params: { maxTokens: 10, temperature: 0 } })).toBe(key);
    expect(rolloutKey({ ...base, task: { ...task, category: "other" } })).toBe(key);
    for (const changed of [
      { harnessHash: "h2" },
      { task: { ...task, input: "other" } },
      { task: { ...task, expected: "9" } },
      { model: "n" },
      { params: { temperature: 1, maxTokens: 10 } },
      { sampleIndex: 1 },
    ]) {
      expect(rolloutKey({ ...base, ...changed })).not.toBe(key);
    }
  });
});

describe("RolloutCache", () => {
  const key = "ab".padEnd(64, "0");

  it("round-trips a record under <dir>/<key[0..2]>/<key>.json without temp files", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    const cache = new RolloutCache(dir);
    expect(await cache.get(key)).toBeUndefined();
    await cache.put({ ...record(key), cached: true });
    expect(await cache.get(key)).toEqual(record(key));
    expect(await readdir(join(dir, "ab"))).toEqual([`${key}.json`]);
  });

  it("treats corrupt, invalid and mislabelled files as misses", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    const cache = new RolloutCache(dir);
    await mkdir(join(dir, "ab"), { recursive: true });
    await writeFile(join(dir, "ab", `${key}.json`), "{not json");
    expect(await cache.get(key)).toBeUndefined();
    await writeFile(join(dir, "ab", `${key}.json`), JSON.stringify({ key, taskId: 3 }));
    expect(await cache.get(key)).toBeUndefined();
    await writeFile(join(dir, "ab", `${key}.json`), JSON.stringify(record("ab".padEnd(64, "1"))));
    expect(await cache.get(key)).toBeUndefined();
    expect(await cache.get("../../etc/passwd")).toBeUndefined();
  });

  it("lists every valid record", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    const cache = new RolloutCache(dir);
    const keys = ["01", "ff", "01"].map((prefix, index) => prefix.padEnd(63, "0") + index);
    for (const each of keys) await cache.put(record(each));
    await writeFile(join(dir, "ff", `${"f".repeat(64)}.json`), "garbage");
    const listed = [];
    for await (const each of cache.records()) listed.push(each.key);
    expect(listed).toEqual([...keys].sort());
  });
});
