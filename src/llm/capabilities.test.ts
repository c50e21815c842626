import { describe, expect, it } from "vitest";
import { initialSettings, isReasoningModel, nextSettings } from "./capabilities.js";
import { testModelConfig } from "./testing/model-config.js";

describe("capabilities", () => {
  it("knows OpenAI's reasoning families, with or without a vendor prefix", () => {
    for (const model of [
      "o1",
      "o1-mini",
      "o3",
      "o3-mini",
      "o4-mini",
      "gpt-5",
      "gpt-5-mini",
      "openai/o3-mini",
      "openai/gpt-5",
    ])
      expect(isReasoningModel(model), model).toBe(true);
    for (const model of [
      "gpt-4o",
      "gpt-4.1-mini",
      "gpt-5-chat-latest",
      "llama3",
      "omni-7b",
      "sim-1",
    ])
      expect(isReasoningModel(model), model).toBe(false);
  });

  it("starts a reasoning model with max_completion_tokens and no temperature; others with the full set", () => {
    expect(initialSettings(testModelConfig("http://x/v1", { model: "o3-mini" }))).toEqual({
      tools: "native",
      structuredOutput: "json_schema",
      tokenLimit: "max_completion_tokens",
      temperature: false,
      seed: true,
    });
    expect(initialSettings(testModelConfig("http://x/v1", { model: "gpt-4o" }))).toMatchObject({
      tokenLimit: "max_tokens",
      temperature: true,
    });
    const fixed = testModelConfig("http://x/v1", {
      model: "o3",
      capabilities: {
        tools: "text",
        structuredOutput: "prompt",
        tokenLimit: "none",
        temperature: "send",
      },
    });
    expect(initialSettings(fixed)).toMatchObject({
      tools: "text",
      structuredOutput: "prompt",
      tokenLimit: "none",
      temperature: true,
    });
  });

  it("steps down each ladder one rung at a time and never loops", () => {
    const start = initialSettings(testModelConfig("http://x/v1", { model: "m" }));
    const tried = new Set<string>();
    const a = nextSettings(start, "response_format", tried);
    expect(a?.structuredOutput).toBe("json_object");
    expect(nextSettings(a!, "response_format", tried)?.structuredOutput).toBe("prompt");
    const b = nextSettings(start, "max_tokens", tried);
    expect(b?.tokenLimit).toBe("max_completion_tokens");
    tried.add("max_tokens");
    expect(nextSettings(b!, "max_completion_tokens", tried)?.tokenLimit).toBe("none");
    expect(nextSettings(b!, "max_tokens", tried)).toBeUndefined();
    expect(nextSettings({ ...start, tools: "text" }, "tools", tried)).toBeUndefined();
    expect(nextSettings(start, "reasoning_effort", tried)).toBeUndefined();
  });
});
