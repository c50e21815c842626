import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callCacheKey, withCallCache } from "./call-cache.js";
import { ScriptedProvider } from "./scripted-provider.js";
import type { ChatRequest } from "./types.js";

const request: ChatRequest = {
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "2+2?" },
  ],
  seed: 0,
  purpose: "agent",
};

function upstream() {
  return new ScriptedProvider((call, index) => ({
    content: `answer ${index} to ${call.messages.at(-1)?.content}`,
    usage: { promptTokens: 100, completionTokens: 10 },
    latencyMs: 340,
    costUsd: 0.5,
    retries: 1,
  }));
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ecdysis-call-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function entryFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("withCallCache", () => {
  it("replays an identical request from disk in a fresh process-like wrapper, without calling upstream", async () => {
    const firstUpstream = upstream();
    const first = withCallCache(firstUpstream, dir);
    const original = await first.chat(request);
    expect(original).toMatchObject({ content: "answer 0 to 2+2?", latencyMs: 340 });
    expect(original.cached).toBeUndefined();

    const resumedUpstream = upstream();
    const resumed = withCallCache(resumedUpstream, dir);
    const replayed = await resumed.chat(structuredClone(request));
    expect(resumedUpstream.calls).toHaveLength(0);
    expect(replayed).toEqual({ ...original, latencyMs: 0, retries: 0, cached: true });
  });

  it("counts uncached and cached calls separately", async () => {
    const cached = withCallCache(upstream(), dir);
    await cached.chat(request);
    await cached.chat(request);
    await cached.chat({ ...request, seed: 1 });
    const totals = cached.totals();
    expect(totals).toMatchObject({
      calls: 2,
      promptTokens: 200,
      completionTokens: 20,
      costUsd: 1,
      retries: 2,
      byPurpose: { agent: { calls: 2, promptTokens: 200, completionTokens: 20, costUsd: 1 } },
      cached: { calls: 1, promptTokens: 100, completionTokens: 10, costUsd: 0.5 },
    });
  });

  it("keys on the model and every request field, not on object key order", () => {
    const reordered: ChatRequest = {
      purpose: "agent",
      seed: 0,
      messages: request.messages.map((message) => ({ ...message })),
    };
    expect(callCacheKey("m", reordered)).toBe(callCacheKey("m", request));
    expect(callCacheKey("m", { ...request, temperature: undefined })).toBe(
      callCacheKey("m", request),
    );
    expect(callCacheKey("other", request)).not.toBe(callCacheKey("m", request));
    expect(callCacheKey("m", { ...request, seed: 1 })).not.toBe(callCacheKey("m", request));
    expect(
      callCacheKey("m", {
        ...request,
        tools: [{ name: "calculator", description: "d", parameters: {} }],
      }),
    ).not.toBe(callCacheKey("m", request));
  });

  it("ignores a corrupt or invalid entry and overwrites it with a good one", async () => {
    const seeded = withCallCache(upstream(), dir);
    await seeded.chat(request);
    const [file] = await entryFiles(dir);
    for (const damage of [
      '{"version":1,"key":"truncated',
      JSON.stringify({ version: 1, key: "x", model: "scripted", response: {} }),
    ]) {
      await writeFile(file, damage);
      const freshUpstream = upstream();
      const response = await withCallCache(freshUpstream, dir).chat(request);
      expect(freshUpstream.calls).toHaveLength(1);
      expect(response.cached).toBeUndefined();
      expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({
        version: 1,
        response: { content: "answer 0 to 2+2?" },
      });
    }
  });

  it("shares one upstream call between identical concurrent requests", async () => {
    const shared = upstream();
    const cached = withCallCache(shared, dir);
    const responses = await Promise.all([
      cached.chat(request),
      cached.chat(request),
      cached.chat(request),
    ]);
    expect(shared.calls).toHaveLength(1);
    expect(responses.filter((response) => response.cached)).toHaveLength(2);
    expect(cached.totals()).toMatchObject({ calls: 1, cached: { calls: 2 } });
  });

  it("leaves exactly one entry file per distinct call and no temp files", async () => {
    const cached = withCallCache(upstream(), dir);
    await Promise.all([
      cached.chat(request),
      cached.chat({ ...request, seed: 1 }),
      cached.chat({ ...request, seed: 2 }),
    ]);
    const files = await entryFiles(dir);
    expect(files).toHaveLength(3);
    expect(files.every((file) => file.endsWith(".json"))).toBe(true);
  });

  it("keys on the provider's variant too: another reasoning effort is another answer", async () => {
    const low = Object.assign(upstream(), { variant: '{"reasoningEffort":"low"}' });
    const high = Object.assign(upstream(), { variant: '{"reasoningEffort":"high"}' });
    await withCallCache(low, dir).chat(request);
    const replay = await withCallCache(low, dir).chat(request);
    const other = await withCallCache(high, dir).chat(request);
    expect(replay.cached).toBe(true);
    expect(other.cached).toBeUndefined();
    expect(high.calls).toHaveLength(1);
  });

  it("does not cache failures", async () => {
    let fail = true;
    const flaky = new ScriptedProvider(() => {
      if (fail) throw new Error("upstream down");
      return { content: "ok" };
    });
    const cached = withCallCache(flaky, dir);
    await expect(cached.chat(request)).rejects.toThrow("upstream down");
    fail = false;
    expect((await cached.chat(request)).content).toBe("ok");
    expect(flaky.calls).toHaveLength(2);
  });
});
