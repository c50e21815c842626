import { describe, expect, it } from "vitest";
import { modelConfigSchema } from "../config/config-schema.js";
import { simBehaviourVersion } from "../sim/index.js";
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

  it("keys the sim on its behaviour version, world content and quirks (a cache of an older sim misses)", () => {
    const sim = modelConfigSchema.parse({ provider: "sim", model: "sim-1", world: "quickstart" });
    const params = rolloutParams(sim);
    expect(params.endpoint).toMatch(new RegExp(`^sim:v${simBehaviourVersion}:[0-9a-f]{16}:$`));
    expect(rolloutParams({ ...sim, world: "noisy" }).endpoint).not.toBe(params.endpoint);
    expect(rolloutParams({ ...sim, quirks: ["fenced-json"] }).endpoint).not.toBe(params.endpoint);
  });
});
