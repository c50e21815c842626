import type { LoadedConfig } from "../config/config-schema.js";
import { builtinAgent } from "./builtin-agent.js";
import { commandAgent } from "./command-agent.js";
import type { AgentAdapter } from "./types.js";

/**
 * The agent adapter a config asks for — the one eval, evolve and gate all run: the built-in
 * runtime or, for a command harness, the command adapter with the project root (the config's
 * folder) as ECDYSIS_PROJECT_ROOT.
 */
export function createAgentAdapter(loaded: LoadedConfig): AgentAdapter {
  const { harness } = loaded.config;
  if (harness.kind === "command")
    return commandAgent({ timeoutMs: harness.timeoutMs, projectRoot: loaded.root });
  return builtinAgent();
}
