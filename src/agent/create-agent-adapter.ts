import path from "node:path";
import { defaultApiKeyEnv, type LoadedConfig } from "../config/config-schema.js";
import { type HarnessWorkspace, openHarnessWorkspace } from "../harness/workspace.js";
import type { ModelGateway } from "../llm/index.js";
import { builtinAgent } from "./builtin-agent.js";
import { commandAgent } from "./command-agent.js";
import { gatewayModelAccess } from "./gateway-access.js";
import type { SandboxDecision } from "./sandbox/sandbox-policy.js";
import type { AgentAdapter } from "./types.js";

/**
 * The agent adapter a config asks for — the one eval, evolve and gate all run: the built-in
 * runtime or, for a command harness, the command adapter with the project root (the config's
 * folder) as ECDYSIS_PROJECT_ROOT, running each harness from its folder in `workspace`, in the
 * run's sandbox (`decideSandbox`), its model reached through the run's `gateway` when there is
 * one (a token per rollout in the variable `model.apiKeyEnv` names; no configured key's
 * variable reaches it, even when `harness.env` lists it).
 */
export function createAgentAdapter(
  loaded: LoadedConfig,
  options: { workspace: HarnessWorkspace; sandbox: SandboxDecision; gateway?: ModelGateway },
): AgentAdapter {
  const { harness, model, probe } = loaded.config;
  const keyOf = new Map([
    ...(probe ? [[probe.model, probe.apiKeyEnv] as const] : []),
    [model.model, model.apiKeyEnv] as const,
  ]);
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
      sandbox: options.sandbox.sandbox,
      modelAccess: options.gateway ? gatewayModelAccess(options.gateway) : undefined,
      key: {
        variable: model.apiKeyEnv ?? defaultApiKeyEnv,
        from: (name) => keyOf.get(name) ?? defaultApiKeyEnv,
      },
      passEnv: options.gateway ? withoutKeys(harness.env, loaded) : harness.env,
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

/** `harness.env` without the variables a configured model's key is read from (the gateway holds the keys). */
function withoutKeys(names: readonly string[] | undefined, loaded: LoadedConfig) {
  const { model, refiner, probe, judge } = loaded.config;
  const keys = new Set(
    [model, refiner, probe, judge].flatMap((role) =>
      role ? [role.apiKeyEnv ?? defaultApiKeyEnv] : [],
    ),
  );
  return names?.filter((name) => !keys.has(name));
}
