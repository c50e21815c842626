import { type ModelConfig, modelConfigSchema } from "../../config/config-schema.js";

/** A valid `openai` model config for tests, pointing at `baseUrl`, with `overrides` applied. */
export function testModelConfig(
  baseUrl: string,
  overrides: Partial<ModelConfig> = {},
): ModelConfig {
  return modelConfigSchema.parse({
    provider: "openai",
    baseUrl,
    model: "test-model",
    ...overrides,
  });
}
