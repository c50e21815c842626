import { type Capability, optionalField } from "./capability.js";

/**
 * `reasoning_effort`. What the config asks for (`model.reasoningEffort`) is never dropped; one an
 * agent sends through the gateway, with none configured, is dropped when the server refuses it.
 */
export const reasoningEffort: Capability<boolean> = optionalField({
  name: "reasoningEffort",
  field: "reasoning_effort",
  initial: () => true,
  auto: (config) => config.reasoningEffort === undefined,
  fix: "remove model.reasoningEffort",
});
