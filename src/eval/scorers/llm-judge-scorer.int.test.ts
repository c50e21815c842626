import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelConfigSchema } from "../../config/config-schema.js";
import { createProvider } from "../../llm/index.js";
import type { ChatProvider } from "../../llm/types.js";
import { loadWorld, type SimServer, startSimServer } from "../../sim/index.js";
import { llmJudgeScorer } from "./llm-judge-scorer.js";

/** The llm_judge scorer end to end: the real openai SDK against the sim playing the judge. */
describe("llm_judge against the sim", () => {
  let server: SimServer;
  let judge: ChatProvider;
  beforeAll(async () => {
    server = await startSimServer({ world: await loadWorld("quickstart"), latencyScale: 0 });
    const config = modelConfigSchema.parse({
      provider: "openai",
      baseUrl: server.url,
      model: "sim-1",
    });
    judge = createProvider({ config, baseUrl: server.url, apiKey: "sim" });
  });
  afterAll(async () => server?.close());

  const task = { id: "t1", input: "What is 6 times 7?", expected: "42", category: "arithmetic" };

  it("passes a right answer, fails a wrong one", async () => {
    const scorer = llmJudgeScorer({ rubric: "The answer is correct.", passThreshold: 0.5 }, judge);
    expect(await scorer.score(task, { answer: "**42**", output: "Answer: **42**" })).toMatchObject({
      pass: true,
      score: 1,
    });
    expect(await scorer.score(task, { answer: "41", output: "Answer: 41" })).toMatchObject({
      pass: false,
      reason: "wrong-answer",
    });
  });

  it("a lenient rubric passes a prose answer; a strict one asks for the answer itself", async () => {
    const prose = { answer: null, output: "Working it out: 6 * 7 = 42. So the result is **42**." };
    const lenient = llmJudgeScorer(
      { rubric: "The reply gets the number right.", passThreshold: 0.5 },
      judge,
    );
    const strict = llmJudgeScorer(
      { rubric: "The answer is exactly the expected value.", passThreshold: 0.5 },
      judge,
    );
    expect((await lenient.score(task, prose)).pass).toBe(true);
    expect((await strict.score(task, prose)).pass).toBe(false);
    expect((await lenient.score(task, { answer: null, output: "It is 420." })).pass).toBe(false);
  });
});
