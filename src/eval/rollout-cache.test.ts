import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RolloutCache } from "./rollout-cache.js";
import { rolloutKey } from "./rollout-key.js";
import { segmentPattern } from "./rollout-segments.js";
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

/** The segment files of a cache folder. */
async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => segmentPattern.test(name));
}

describe("RolloutCache", () => {
  const key = "ab".padEnd(64, "0");

  it("round-trips a record as one line of a segment file, and a later cache reads it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    const cache = new RolloutCache(dir);
    expect(await cache.get(key)).toBeUndefined();
    await cache.put({ ...record(key), cached: true });
    expect(await cache.get(key)).toEqual(record(key));
    const [segment, ...others] = await segmentFiles(dir);
    expect(others).toEqual([]);
    expect(await readdir(dir)).toEqual([segment]);
    const text = await readFile(join(dir, segment), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(record(key));
    expect(await new RolloutCache(dir).get(key)).toEqual(record(key));
  });

  it("writes concurrent puts of one cache into its one segment", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    const cache = new RolloutCache(dir);
    const keys = Array.from({ length: 50 }, (_, index) => index.toString(16).padStart(64, "a"));
    await Promise.all(keys.map((each) => cache.put(record(each))));
    expect(await segmentFiles(dir)).toHaveLength(1);
    const reader = new RolloutCache(dir);
    for (const each of keys) expect((await reader.get(each))?.key).toBe(each);
  });

  it("treats corrupt, invalid, mislabelled and cut-short lines as misses", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    const [a, b, c, d] = ["a", "b", "c", "d"].map((letter) => letter.repeat(64));
    const lines = [
      `{"key":"${a}", not json`,
      JSON.stringify({ key: b, taskId: 3 }),
      // Indexed under c, but the record it holds says d.
      JSON.stringify(record(d)).replace("{", `{"key":"${c}",`),
      "garbage",
      // What a process killed mid-write leaves: a last line without its newline.
      JSON.stringify(record(d)).slice(0, 80),
    ];
    await writeFile(join(dir, "rollouts-1-00.jsonl"), lines.join("\n"));
    const cache = new RolloutCache(dir);
    for (const each of [a, b, c, d]) expect(await cache.get(each)).toBeUndefined();
    expect(await cache.get("../../etc/passwd")).toBeUndefined();
    // A miss is recomputed and stored again: the fresh line wins.
    await cache.put(record(a));
    expect((await cache.get(a))?.key).toBe(a);
    expect((await new RolloutCache(dir).get(a))?.key).toBe(a);
  });

  it("merges caches written on separate machines by copying their files into one folder", async () => {
    const [first, second, merged] = await Promise.all(
      [1, 2, 3].map(() => mkdtemp(join(tmpdir(), "ecdysis-cache-"))),
    );
    const keys = ["01", "ff", "7a"].map((prefix) => prefix.padEnd(64, "0"));
    await new RolloutCache(first).put(record(keys[0]));
    await new RolloutCache(first).put(record(keys[2]));
    await new RolloutCache(second).put(record(keys[1]));
    // The same rollout computed by both: a union keeps one.
    await new RolloutCache(second).put(record(keys[2]));
    for (const dir of [first, second]) await cp(dir, merged, { recursive: true });
    const listed = [];
    for await (const each of new RolloutCache(merged).records()) listed.push(each.key);
    expect(listed).toEqual([...keys].sort());
  });

  it("still reads a folder of the one-file-per-rollout layout", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cache-"));
    await mkdir(join(dir, "ab"), { recursive: true });
    await writeFile(join(dir, "ab", `${key}.json`), JSON.stringify(record(key)));
    await writeFile(join(dir, "ab", `${"ab".padEnd(64, "1")}.json`), "{not json");
    const cache = new RolloutCache(dir);
    expect(await cache.get(key)).toEqual(record(key));
    const other = "cd".padEnd(64, "0");
    await cache.put(record(other));
    const listed = [];
    for await (const each of cache.records()) listed.push(each.key);
    expect(listed).toEqual([key, other]);
  });
});
