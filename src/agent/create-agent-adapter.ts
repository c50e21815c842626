import path from "node:path";
import { defaultApiKeyEnv, type LoadedConfig } from "../config/config-schema.js";
import { type HarnessWorkspace, openHarnessWorkspace } from "../harness/workspace.js";
import type { ModelGateway } from "../llm/index.js";
import { builtinAgent } from "./builtin-agent.js";
import { commandAgent } from "./command-agent.js";
import type { AgentAdapter } from "./types.js";

/**
 * The agent adapter a config asks for — the one eval, evolve and gate all run: the built-in
 * runtime or, for a command harness, the command adapter with the project root (the config's
 * folder) as ECDYSIS_PROJECT_ROOT, running each harness from its folder in `workspace`, its
 * model reached through the run's `gateway` when there is one (a token per rollout in the
 * variable `model.apiKeyEnv` names; none of the configured keys' variables reach it).
 */
export function createAgentAdapter(
  loaded: LoadedConfig,
  options: { workspace: HarnessWorkspace; gateway?: ModelGateway },
): AgentAdapter {
  const { harness, model, probe, refiner, judge } = loaded.config;
  // The agent's own tokens are priced like the run's: the agent model's price, or the probe's.
  const prices = new Map([
    ...(probe ? [[probe.model, probe.price] as const] : []),
    [model.model, model.price] as const,
  ]);
  if (harness.kind === "command")
    return commandAgent({
      timeoutMs: harness.timeoutMs,
      projectRoot: loaded.root,
      harnessHome: path.resolve(loaded.root, harness.dir),
      workspace: options.workspace,
      price: (name) => prices.get(name),
      gateway: options.gateway,
      keyVariable: model.apiKeyEnv ?? defaultApiKeyEnv,
      keyVariables: [model, refiner, probe, judge].flatMap((role) =>
        role?.apiKeyEnv ? [role.apiKeyEnv] : [],
      ),
    });
  return builtinAgent();
}

/**
 * The workspace a run of this config materialises its command-harness candidates in: its own
 * folder under `<cacheDir>/harnesses` (inside the project, so a Node agent still finds the
 * project's `node_modules` above it). Nothing is written until a command harness runs; the run
 * closes it when it ends.
 */
export function runWorkspace(loaded: LoadedConfig): HarnessWorkspace {
  return openHarnessWorkspace({
    parent: path.resolve(loaded.root, loaded.config.cacheDir, "harnesses"),
  });
}
