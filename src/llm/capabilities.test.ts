import { describe, expect, it } from "vitest";
import { capabilitiesSchema } from "../config/config-schema.js";
import {
  capabilityRecords,
  initialSettings,
  isReasoningModel,
  mapBody,
  nextSettings,
} from "./capabilities.js";
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
      reasoningEffort: true,
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
        seed: "auto",
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
    expect(nextSettings(start, "reasoning_effort", tried)?.reasoningEffort).toBe(false);
    expect(nextSettings(start, "top_k", tried)).toBeUndefined();
  });
});

describe("the capability records", () => {
  it("each configurable record has its switch under model.capabilities, and each switch a record", () => {
    const switches = Object.keys(capabilitiesSchema.shape).sort();
    const configurable = Object.keys(capabilityRecords).filter(
      (name) => name !== "reasoningEffort",
    );
    expect(configurable.sort()).toEqual(switches);
  });

  it("maps our richest body down rung by rung, and a raw body alike", () => {
    const config = testModelConfig("http://x/v1", { model: "m" });
    const body = {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      temperature: 0,
      max_tokens: 50,
      seed: 3,
      response_format: {
        type: "json_schema",
        json_schema: { name: "n", schema: { type: "object" }, strict: true },
      },
    };
    const settings = initialSettings(config);
    expect(mapBody(body, settings)).toEqual(body);
    const lowest = {
      ...settings,
      structuredOutput: "prompt" as const,
      tokenLimit: "none" as const,
      temperature: false,
      seed: false,
    };
    const mapped = mapBody(body, lowest);
    expect(Object.keys(mapped).sort()).toEqual(["messages", "model"]);
    expect((mapped.messages as { content: string }[])[0].content).toContain("## Reply format");
    expect(mapBody(body, { ...settings, tokenLimit: "max_completion_tokens" })).toMatchObject({
      max_completion_tokens: 50,
    });
  });
});
