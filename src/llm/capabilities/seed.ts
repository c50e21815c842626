import { type Capability, optionalField } from "./capability.js";

/**
 * The sample's `seed`, sent or omitted. Gemini's OpenAI-compatible endpoint and LiteLLM in front
 * of several providers refuse it (`Unknown name "seed": Cannot find field.`, `does not support
 * parameters: ['seed']`); without it, samples differ only by the server's own sampling.
 */
export const seed: Capability<boolean> = optionalField({
  name: "seed",
  field: "seed",
  initial: (config) => config.capabilities.seed !== "omit",
  auto: (config) => config.capabilities.seed === "auto",
  fix: "set model.capabilities.seed to omit (or auto)",
});
