import { type Capability, optionalField } from "./capability.js";
import { isReasoningModel } from "./model-family.js";

/**
 * `temperature`, sent or omitted. Reasoning models (o-series, GPT-5) take only their default, so
 * `auto` starts them without it; OpenAI refuses other values with `unsupported_value`.
 */
export const temperature: Capability<boolean> = optionalField({
  name: "temperature",
  field: "temperature",
  initial: (config) =>
    config.capabilities.temperature === "auto"
      ? !isReasoningModel(config.model)
      : config.capabilities.temperature === "send",
  auto: (config) => config.capabilities.temperature === "auto",
  fix: "set model.capabilities.temperature to omit (or auto)",
});
