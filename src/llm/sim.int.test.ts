import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadWorld, type SimFaults, type SimServer, startSimServer } from "../sim/index.js";
import type { Quirk } from "../sim/world-schema.js";
import { chatJson } from "./chat-json.js";
import { createProvider } from "./openai-provider.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";

/**
 * The real SDK path against the real sim: structured output must come back identical whatever
 * server quirks and transport faults are in the way.
 */
const notesSchema = z.object({
  notes: z.array(z.object({ id: z.string(), note: z.string(), cause: z.string() })),
});
const evidence = {
  failures: [
    {
      id: "arith-1",
      task: "A crate holds 17 boxes of 23 apples. How many apples?",
      output: "About 390 apples. Answer: 390",
      answer: "390",
      expected: "391",
      verdict: "wrong-answer",
      events: [],
      toolCalls: [],
      steps: 1,
    },
  ],
};
const request = {
  messages: [
    { role: "system" as const, content: "Write one short failure note per failed rollout." },
    {
      role: "user" as const,
      content: `Evidence:\n\n\`\`\`json\n${JSON.stringify(evidence, null, 2)}\n\`\`\``,
    },
  ],
  jsonSchema: { name: "failure_notes", schema: { type: "object" } },
  temperature: 0,
  purpose: "failure-notes",
};

async function ask(options: { quirks?: Quirk[]; faults?: SimFaults; times?: number }) {
  const server: SimServer = await startSimServer({
    world: await loadWorld("quickstart"),
    latencyScale: 0,
    quirks: options.quirks,
    faults: options.faults,
  });
  const clock = new RecordingClock();
  const provider = createProvider({
    config: testModelConfig(server.url, { model: "sim-1" }),
    baseUrl: server.url,
    apiKey: "sim-key",
    clock,
  });
  const results = [];
  for (let index = 0; index < (options.times ?? 1); index++)
    results.push(await chatJson(provider, request, notesSchema));
  return { results, provider, clock, requests: server.requests() };
}

describe("llm layer against the sim", () => {
  it("returns the same structured value through every server quirk and transport fault", async () => {
    const clean = await ask({});
    const [baseline] = clean.results;
    expect(baseline.value.notes.map((note) => note.id)).toEqual(["arith-1"]);

    for (const quirks of [
      ["fenced-json"],
      ["prose-json"],
      ["ignore-response-format"],
    ] as Quirk[][]) {
      const quirky = await ask({ quirks });
      expect(quirky.results[0].value, quirks.join()).toEqual(baseline.value);
    }

    const faulty = await ask({
      faults: { status429Every: 2, retryAfterSeconds: 3, status500Every: 5, truncatedJsonEvery: 2 },
      times: 3,
    });
    for (const result of faulty.results) expect(result.value).toEqual(baseline.value);
    expect(faulty.results.some((result) => result.repairs > 0)).toBe(true);
    expect(faulty.clock.sleeps).toContain(3_000);
    expect(faulty.provider.totals().retries).toBeGreaterThan(0);

    // The faults the network and proxies add: a login page answered with 200, a reset before
    // the headers, a connection dropped mid-body. Each is retried; none becomes a repair.
    for (const nonCompletion of [
      "html",
      "no-choices",
      "empty-choices",
      "null-content",
      "length-empty",
    ] as const) {
      const outage = await ask({ faults: { nonCompletionEvery: 2, nonCompletion }, times: 2 });
      for (const result of outage.results)
        expect(result.value, nonCompletion).toEqual(baseline.value);
      expect(
        outage.results.map((result) => result.repairs),
        nonCompletion,
      ).toEqual([0, 0]);
      expect(outage.provider.totals().retries, nonCompletion).toBe(1);
    }
    const network = await ask({ faults: { resetEvery: 2, dropMidBodyEvery: 3 }, times: 3 });
    for (const result of network.results) expect(result.value).toEqual(baseline.value);
    expect(network.provider.totals().retries).toBeGreaterThanOrEqual(2);
  });
});
