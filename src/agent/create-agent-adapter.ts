import path from "node:path";
import { defaultApiKeyEnv, type LoadedConfig } from "../config/config-schema.js";
import { type HarnessWorkspace, openHarnessWorkspace } from "../harness/workspace.js";
import { builtinAgent } from "./builtin-agent.js";
import { commandAgent } from "./command-agent.js";
import { checkDirectAccess, type ModelAccess } from "./model-access.js";
import type { SandboxDecision } from "./sandbox/sandbox-policy.js";
import type { AgentAdapter } from "./types.js";

/**
 * The agent adapter a config asks for — the one eval, evolve and gate all run: the built-in
 * runtime or, for a command harness, the command adapter with the project root (the config's
 * folder) as ECDYSIS_PROJECT_ROOT, running each harness from its folder in `workspace`, in the
 * run's sandbox (`decideSandbox`), its key in the variable the config names (`model.apiKeyEnv`).
 */
export function createAgentAdapter(
  loaded: LoadedConfig,
  options: { workspace: HarnessWorkspace; sandbox: SandboxDecision; modelAccess?: ModelAccess },
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
  if (harness.kind === "command" && options.sandbox.sandbox && !options.modelAccess)
    checkDirectAccess({
      configFile: loaded.path,
      endpoints: [
        {
          field: "model.baseUrl",
          baseUrl: model.provider === "openai" ? model.baseUrl : undefined,
        },
        {
          field: "probe.baseUrl",
          baseUrl: probe?.provider === "openai" ? probe.baseUrl : undefined,
        },
      ],
    });
  if (harness.kind === "command")
    return commandAgent({
      timeoutMs: harness.timeoutMs,
      projectRoot: loaded.root,
      harnessHome: path.resolve(loaded.root, harness.dir),
      workspace: options.workspace,
      price: (name) => prices.get(name),
      sandbox: options.sandbox.sandbox,
      modelAccess: options.modelAccess,
      key: {
        variable: model.apiKeyEnv ?? defaultApiKeyEnv,
        from: (name) => keyOf.get(name) ?? defaultApiKeyEnv,
      },
      passEnv: harness.env,
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
