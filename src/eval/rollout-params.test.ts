import { describe, expect, it } from "vitest";
import { modelConfigSchema } from "../config/config-schema.js";
import { rolloutParams } from "./rollout-params.js";

const model = (extra: Record<string, unknown> = {}) =>
  modelConfigSchema.parse({ provider: "openai", baseUrl: "http://x/v1", model: "m", ...extra });

describe("rolloutParams", () => {
  it("is unchanged for a config that sets no reply variant (existing caches keep their keys)", () => {
    expect(rolloutParams(model())).toEqual({ temperature: 0, maxTokens: 1024, endpoint: "" });
  });

  it("keys on reasoning effort, extra body fields and fixed capabilities", () => {
    const keys = [
      model(),
      model({ reasoningEffort: "low" }),
      model({ reasoningEffort: "high" }),
      model({ extraBody: { top_k: 20 } }),
      model({ capabilities: { tools: "text" } }),
    ].map((config) => JSON.stringify(rolloutParams(config)));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
