import type { LoadedConfig } from "../config/config-schema.js";
import { builtinAgent } from "./builtin-agent.js";
import { commandAgent } from "./command-agent.js";
import type { AgentAdapter } from "./types.js";

/**
 * The agent adapter a config asks for — the one eval, evolve and gate all run: the built-in
 * runtime (text tool protocol when the model has the `no-native-tools` quirk) or, for a command
 * harness, the command adapter with the project root (the config's folder) as
 * ECDYSIS_PROJECT_ROOT.
 */
export function createAgentAdapter(loaded: LoadedConfig): AgentAdapter {
  const { harness, model } = loaded.config;
  if (harness.kind === "command")
    return commandAgent({ timeoutMs: harness.timeoutMs, projectRoot: loaded.root });
  return builtinAgent({ textProtocol: model.quirks.includes("no-native-tools") });
}
