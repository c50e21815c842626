import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentAdapter } from "../agent/types.js";
import { TransportError } from "../errors/transport-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { evaluate } from "./evaluate.js";
import { RolloutCache } from "./rollout-cache.js";
import { RolloutSlots } from "./rollout-slots.js";
import { exactScorer } from "./scorers/exact-scorer.js";
import type { Scorer } from "./scorers/scorer.js";
import { countCachedRollouts } from "./testing/cached-rollouts.js";
import { EchoAgent } from "./testing/echo-agent.js";
import { askedNumber, fakeHarness, numberedTasks } from "./testing/fixtures.js";
import { type RolloutRecord, rolloutRecordSchema } from "./types.js";

/** Answers right except for tasks listed in `wrong`; a counter of calls per task id. */
function model(wrong: Set<string> = new Set()) {
  return new ScriptedProvider((request: ChatRequest) => {
    const number = askedNumber(String(request.messages[0].content));
    return { content: wrong.has(`q${number}`) ? "nope" : number };
  }, "test-model");
}

const scorer = () => exactScorer();
const tempDir = () => mkdtemp(join(tmpdir(), "ecdysis-eval-"));

describe("evaluate", () => {
  it("scores, folds by category and reports interval and cost", async () => {
    const tasks = numberedTasks(10);
    const provider = model(new Set(["q1", "q3"]));
    let now = 1000;
    const { result, records } = await evaluate({
      tasks,
      harness: fakeHarness(),
      provider,
      adapter: new EchoAgent(),
      scorer,
      concurrency: 3,
      split: "train",
      clock: { now: () => (now += 5) },
    });
    expect(result.accuracy).toBe(0.8);
    expect(result.n).toBe(10);
    expect(result.byCategory).toEqual({
      even: { accuracy: 1, n: 5 },
      odd: { accuracy: 0.6, n: 5 },
    });
    expect(result.interval[0]).toBeCloseTo(0.49, 2);
    expect(result.interval[1]).toBeCloseTo(0.943, 2);
    expect(result.model).toBe("test-model");
    expect(result.cost).toMatchObject({
      rollouts: 10,
      cachedRollouts: 0,
      llmCalls: 10,
      promptTokens: 100,
      completionTokens: 50,
    });
    expect(result.cost.wallMs).toBeGreaterThan(0);
    expect(records.map((record) => record.taskId)).toEqual(tasks.map((task) => task.id));
    expect(records.find((record) => record.taskId === "q1")?.verdict.reason).toBe("wrong-answer");
  });

  it("folds samples by strict majority, with distinct seeds per sample", async () => {
    // q0 passes on seeds 0 and 2 only; q1 passes on seed 1 only.
    const provider = new ScriptedProvider((request) => {
      const number = askedNumber(String(request.messages[0].content));
      const good = number === "0" ? request.seed !== 1 : request.seed === 1;
      return { content: good ? number : "x" };
    });
    const { result } = await evaluate({
      tasks: numberedTasks(2),
      harness: fakeHarness(),
      provider,
      adapter: new EchoAgent(),
      scorer,
      samples: 3,
      concurrency: 2,
      split: "train",
    });
    expect(result.tasks.map((task) => [task.taskId, task.pass, task.passes, task.samples])).toEqual(
      [
        ["q0", true, 2, 3],
        ["q1", false, 1, 3],
      ],
    );
    expect(provider.calls.map((call) => call.seed).sort()).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("serves a second run from the cache without calling the model", async () => {
    const cache = new RolloutCache(await tempDir());
    const options = {
      tasks: numberedTasks(6),
      harness: fakeHarness(),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 4,
      split: "train",
      cache,
    };
    const first = await evaluate({ ...options, provider: model(new Set(["q2"])) });
    const again = model(new Set(["q2"]));
    const seen: RolloutRecord[] = [];
    const second = await evaluate({
      ...options,
      provider: again,
      onRecord: (record) => seen.push(record),
    });
    expect(again.calls).toHaveLength(0);
    // Every record reaches onRecord as it is scored, cached ones included.
    expect(seen.map((record) => record.key).sort()).toEqual(
      second.records.map((record) => record.key).sort(),
    );
    expect(second.result.tasks).toEqual(first.result.tasks);
    expect(second.result.cost).toMatchObject({ rollouts: 0, cachedRollouts: 6, llmCalls: 0 });
    expect(second.records.every((record) => record.cached && record.latencyMs === 0)).toBe(true);
    // Another harness or other params are other rollouts.
    const other = model();
    await evaluate({ ...options, provider: other, params: { temperature: 0.7 } });
    expect(other.calls).toHaveLength(6);
  });

  it("resumes after an abort without calling the model again for finished rollouts", async () => {
    const cache = new RolloutCache(await tempDir());
    const tasks = numberedTasks(12);
    const controller = new AbortController();
    const firstCalls: string[] = [];
    const interrupted = new ScriptedProvider((request) => {
      const number = askedNumber(String(request.messages[0].content));
      firstCalls.push(`q${number}`);
      if (firstCalls.length === 5) controller.abort(new Error("killed"));
      return { content: number };
    }, "test-model");
    const base = {
      tasks,
      harness: fakeHarness(),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 1,
      split: "train",
      cache,
    };
    await expect(
      evaluate({ ...base, provider: interrupted, signal: controller.signal }),
    ).rejects.toThrow("killed");
    const finished = firstCalls.length - 1; // the fifth call was cut by the abort
    const counting = model();
    const resumed = await evaluate({ ...base, provider: counting });
    expect(counting.calls).toHaveLength(tasks.length - finished);
    const rerun = new Set(
      counting.calls.map((call) => `q${askedNumber(String(call.messages[0].content))}`),
    );
    for (const id of firstCalls.slice(0, finished)) expect(rerun.has(id)).toBe(false);
    expect(resumed.result.accuracy).toBe(1);
    expect(resumed.result.cost).toMatchObject({
      rollouts: tasks.length - finished,
      cachedRollouts: finished,
    });
  });

  it("ignores a corrupt cache file and recomputes it", async () => {
    const dir = await tempDir();
    const cache = new RolloutCache(dir);
    const options = {
      tasks: numberedTasks(3),
      harness: fakeHarness(),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 1,
      split: "train",
      cache,
    };
    const { records } = await evaluate({ ...options, provider: model() });
    const key = records[1].key;
    // Damage that record's line in place (same length, so the others stay where they are).
    const [segment] = await readdir(dir);
    const text = await readFile(join(dir, segment), "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((line) => line.includes(key));
    lines[at] = `${lines[at].slice(0, 80)}${"#".repeat(lines[at].length - 80)}`;
    await writeFile(join(dir, segment), lines.join("\n"));
    const rerun = model();
    const second = await evaluate({ ...options, cache: new RolloutCache(dir), provider: rerun });
    expect(rerun.calls).toHaveLength(1);
    expect(second.result.accuracy).toBe(1);
    expect(await new RolloutCache(dir).get(key)).toBeDefined();
  });

  it("counts LLM transport failures as infra errors: unscored, uncached, not among the records", async () => {
    const dir = await tempDir();
    const cache = new RolloutCache(dir);
    const provider = new ScriptedProvider((request) => {
      const number = askedNumber(String(request.messages[0].content));
      if (number === "4")
        throw new TransportError("llm", "503 from endpoint", { status: 503, retryable: true });
      return { content: number };
    }, "test-model");
    const seen: string[] = [];
    const { result, records } = await evaluate({
      tasks: numberedTasks(6),
      harness: fakeHarness(),
      provider,
      adapter: new EchoAgent(),
      scorer,
      concurrency: 2,
      split: "train",
      cache,
      onRecord: (record) => seen.push(record.taskId),
    });
    expect(records.map((record) => record.taskId)).not.toContain("q4");
    expect(seen).not.toContain("q4");
    expect(result).toMatchObject({ accuracy: 1, n: 5, infraErrors: 1 });
    expect(result.tasks.map((task) => task.taskId)).not.toContain("q4");
    expect(await cache.get(records[0].key)).toBeDefined();
    const again = await evaluate({
      tasks: numberedTasks(6),
      harness: fakeHarness(),
      provider: model(),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 2,
      split: "train",
      cache,
    });
    expect(again.result).toMatchObject({ accuracy: 1, n: 6, infraErrors: 0 });
    expect(again.result.cost).toMatchObject({ cachedRollouts: 5, rollouts: 1 });
  });

  it("stops with a TransportError once infra errors exceed the tolerated share", async () => {
    const provider = new ScriptedProvider(() => {
      throw new TransportError("llm", "connection refused", { retryable: true });
    });
    const error = await evaluate({
      tasks: numberedTasks(10),
      harness: fakeHarness(),
      provider,
      adapter: new EchoAgent(),
      scorer,
      concurrency: 1,
      split: "train",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain("2 of 10 rollouts did not reach the model");
    expect((error as Error).message).toContain("connection refused");
    expect(provider.calls).toHaveLength(2);
    const tolerant = await evaluate({
      tasks: numberedTasks(4),
      harness: fakeHarness(),
      provider: new ScriptedProvider((request, index) => {
        if (index < 2) throw new TransportError("llm", "reset", { retryable: true });
        return { content: askedNumber(String(request.messages[0].content)) };
      }),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 1,
      split: "train",
      maxInfraErrorShare: 0.5,
    });
    expect(tolerant.result).toMatchObject({ n: 2, infraErrors: 2, accuracy: 1 });
  });

  it("stops at the first refused key, quota or model: every rollout would meet it", async () => {
    const provider = new ScriptedProvider(() => {
      throw new TransportError("llm", "401 from endpoint: the API key in $K was refused", {
        status: 401,
        retryable: false,
      });
    });
    const adapter: AgentAdapter = {
      run: async (input) => {
        await input.provider.chat({ messages: [{ role: "user", content: input.task.input }] });
        throw new Error("unreachable");
      },
    };
    const error = await evaluate({
      tasks: numberedTasks(20),
      harness: fakeHarness(),
      provider,
      adapter,
      scorer,
      concurrency: 1,
      split: "train",
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain("was refused");
    expect(provider.calls).toHaveLength(1);
  });

  it("a judge that cannot be reached makes an infra error, not a failed verdict", async () => {
    const judgeDown: Scorer = {
      score: async () => {
        throw new TransportError("llm", "judge timed out", { retryable: true });
      },
    };
    const { result, records } = await evaluate({
      tasks: numberedTasks(10),
      harness: fakeHarness(),
      provider: model(),
      adapter: new EchoAgent(),
      scorer: (task) => (task.id === "q3" ? judgeDown : scorer()),
      concurrency: 2,
      split: "train",
    });
    expect(result).toMatchObject({ n: 9, infraErrors: 1, accuracy: 1 });
    expect(records.map((record) => record.taskId)).not.toContain("q3");
  });

  it("writes nothing but complete records into the cache folder", async () => {
    const dir = await tempDir();
    await evaluate({
      tasks: numberedTasks(4),
      harness: fakeHarness(),
      provider: model(),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 4,
      split: "train",
      cache: new RolloutCache(dir),
    });
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const text = await readFile(join(dir, files[0]), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines)
      expect(rolloutRecordSchema.safeParse(JSON.parse(line)).success).toBe(true);
  });
});

describe("evaluate: what it keeps and how many run at once", () => {
  it("returns only the records `keep` keeps, with the same result and every record cached", async () => {
    const dir = await tempDir();
    const options = {
      tasks: numberedTasks(10),
      harness: fakeHarness(),
      adapter: new EchoAgent(),
      scorer,
      concurrency: 3,
      split: "train",
    };
    const all = await evaluate({ ...options, provider: model(new Set(["q1", "q3"])) });
    const seen: string[] = [];
    const failing = await evaluate({
      ...options,
      provider: model(new Set(["q1", "q3"])),
      cache: new RolloutCache(dir),
      keep: (record) => !record.verdict.pass,
      onRecord: (record) => seen.push(record.key),
    });
    const { cost: _all, ...allResult } = all.result;
    const { cost: _failing, ...failingResult } = failing.result;
    expect(failingResult).toEqual(allResult);
    expect(failing.records.map((record) => record.taskId)).toEqual(["q1", "q3"]);
    expect(seen).toHaveLength(10);
    expect(await countCachedRollouts(dir)).toBe(10);
  });

  it("shares one limit of agent rollouts in flight between evaluations handed the same slots", async () => {
    let running = 0;
    let most = 0;
    const echo = new EchoAgent();
    const adapter: AgentAdapter = {
      async run(input) {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        try {
          return await echo.run(input);
        } finally {
          running -= 1;
        }
      },
    };
    const slots = new RolloutSlots(2);
    const run = (prefix: string) =>
      evaluate({
        tasks: numberedTasks(8).map((task) => ({ ...task, id: `${prefix}${task.id}` })),
        harness: fakeHarness(),
        provider: model(),
        adapter,
        scorer,
        concurrency: 4,
        split: "train",
        slots,
      });
    const results = await Promise.all([run("a"), run("b"), run("c")]);
    expect(results.map(({ result }) => result.n)).toEqual([8, 8, 8]);
    expect(most).toBe(2);
    expect(slots.inUse).toBe(0);
  });

  it("stops a rollout waiting for a slot when the evaluation is aborted", async () => {
    const slots = new RolloutSlots(1);
    let release: () => void = () => undefined;
    const held = slots.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const adapter = new EchoAgent();
    const waiting = evaluate({
      tasks: numberedTasks(3),
      harness: fakeHarness(),
      provider: model(),
      adapter,
      scorer,
      concurrency: 3,
      split: "train",
      slots,
      signal: controller.signal,
    });
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(adapter.runs).toEqual([]);
    release();
    await held;
    expect(slots.inUse).toBe(0);
  });
});
