import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createAgentAdapter, runWorkspace } from "../agent/create-agent-adapter.js";
import { decideSandbox, type SandboxDecision } from "../agent/sandbox/sandbox-policy.js";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { loadSplits } from "../config/split-overlap.js";
import { openModels, type SimModelServer } from "../eval/open-models.js";
import { codeReaches } from "../harness/code-reaches.js";
import { loadHarness } from "../harness/load-harness.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker } from "./budget.js";
import { runEvaluations, wrapModels } from "./evaluation-setup.js";
import { judgeCrashes } from "./gate-crashes.js";
import { compareGate, type GateResult } from "./gate-result.js";
import type { Models } from "./run-context.js";

/** Options of runGate. */
export interface RunGateOptions {
  base: { harnessDir: string };
  /**
   * `projectRoot`: where the head harness runs as a project (a command harness's
   * `ECDYSIS_PROJECT_ROOT`); the Action gives the PR's harness a root without the task files.
   */
  head: { harnessDir: string; projectRoot?: string };
  /** Loaded from the BASE branch: held-out tasks, scorer and thresholds never come from the PR under test. */
  loaded: LoadedConfig;
  outDir: string;
  models?: Models;
  /** The agent adapter; by default the config's (`createAgentAdapter`). */
  adapter?: AgentAdapter;
  callCache?: boolean;
  /** Secret values besides the configured ones, scrubbed from what the gate writes. */
  secrets?: string[];
  /** Environment the configured secrets are read from. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Serves `provider: sim` models when the models are opened here (src/sim `serveSimModel`). */
  simServer?: SimModelServer;
}

/**
 * The held-out gate for any harness change: evaluates base and head on the base's held-out
 * split, compares them pairwise, and writes gate.json (its callers render gate.md from it).
 * Both task files are read first: overlapping splits are refused before any rollout. What it
 * writes and returns is scrubbed of the run's secrets.
 */
export async function runGate(options: RunGateOptions): Promise<GateResult> {
  const { loaded } = options;
  const config = loaded.config;
  const { base, head, heldout } = await loadSides(options);
  const headRoot = options.head.projectRoot ?? loaded.root;
  const sandboxes = await gateSandboxes(options, headRoot);
  const redactor = new SecretRedactor([
    ...configuredSecrets(loaded, options.env),
    ...(options.secrets ?? []),
  ]);
  const opened = options.models ? undefined : await openGateModels(options, redactor);
  // A command harness's own calls go through the models' gateway.
  const gateway = (options.models ?? opened)?.gateway;
  // Both harnesses run from their own folders, like every candidate of evolve.
  const workspace = runWorkspace(loaded);
  try {
    // No limits: the gate measures, it does not train; the tracker only counts.
    const budget = new BudgetTracker({}, () => 0);
    const models = wrapModels({
      models: options.models ?? (opened as Models),
      loaded,
      budget,
      callCache: options.callCache ?? true,
      redactor,
    });
    const evaluations = runEvaluations({ loaded, models, budget, redactor });
    // The head runs from its own project root when given (the Action's PR harness: a root
    // without the base's task files); the base from the config's.
    const sides = {
      base: { root: loaded.root, sandbox: sandboxes.base, harness: base },
      head: { root: headRoot, sandbox: sandboxes.head, harness: head },
    };
    const measure = (name: "base" | "head") => {
      const { root, sandbox, harness } = sides[name];
      const adapter =
        options.adapter ?? createAgentAdapter({ ...loaded, root }, { workspace, sandbox, gateway });
      const evaluate = evaluations({ enforce: false, split: "heldout", adapter });
      return evaluate({ tasks: heldout, harness, label: `gate: ${name}` });
    };
    const baseRun = await measure("base");
    const headRun = await measure("head");
    const compared = judgeCrashes(
      compareGate({ base: baseRun, head: headRun, gate: config.gate }),
      baseRun,
      headRun,
    );
    // A command harness: how the head's code ran, and what it newly reaches for.
    const command = config.harness.kind === "command";
    const reaches = command ? codeReaches(base.files, head.files) : undefined;
    const result = redactor.json(
      command ? { ...compared, sandbox: sandboxes.head.status, reaches } : compared,
    );
    await mkdir(options.outDir, { recursive: true });
    await writeFile(path.join(options.outDir, "gate.json"), redactor.text(jsonText(result)));
    return result;
  } finally {
    await workspace.close();
    await opened?.close();
  }
}

/** The config's models for the gate, the gateway's replies kept with the call cache and scrubbed. */
function openGateModels(options: RunGateOptions, redactor: SecretRedactor) {
  return openModels(options.loaded, {
    env: options.env,
    simServer: options.simServer,
    gatewayCache: options.callCache ?? true,
    redact: (body) => redactor.json(body),
  });
}

/**
 * The sandboxes of both sides, decided before any rollout: the head is a pull request's code,
 * never run unsandboxed under `auto`; its declared reads resolve against its own project root.
 */
async function gateSandboxes(
  options: RunGateOptions,
  headRoot: string,
): Promise<{ base: SandboxDecision; head: SandboxDecision }> {
  const { loaded, env } = options;
  const untrusted = "the gate runs a pull request's head harness";
  return {
    head: await decideSandbox({ loaded, root: headRoot, untrusted, env }),
    base: await decideSandbox({ loaded, env }),
  };
}

const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Both harnesses and the held-out split (both task files read: overlapping splits are refused first). */
async function loadSides(options: RunGateOptions) {
  const { config } = options.loaded;
  const load = (dir: string) =>
    loadHarness({
      dir: path.resolve(dir),
      kind: config.harness.kind,
      command: config.harness.command,
    });
  const base = await load(options.base.harnessDir);
  const head = await load(options.head.harnessDir);
  const { heldout } = await loadSplits(options.loaded);
  return { base, head, heldout };
}
