import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { loadSplits } from "../config/split-overlap.js";
import { renderGateComment } from "../report/gate-comment.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker } from "./budget.js";
import type { EvolveDeps, Models } from "./deps.js";
import { makeEvaluate, scorerFactory, wrapModels } from "./evaluation-setup.js";
import { compareGate, type GateResult } from "./gate-result.js";
import { meterAdapter } from "./meter.js";

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
  deps?: EvolveDeps;
  callCache?: boolean;
  /** Secret values besides the configured ones, scrubbed from what the gate writes. */
  secrets?: string[];
  /** Environment the configured secrets are read from. Default process.env. */
  env?: Record<string, string | undefined>;
}

/**
 * The held-out gate for any harness change: evaluates base and head on the base's held-out
 * split, compares them pairwise, and writes gate.json and gate.md (the sticky comment's text).
 * Both task files are read first: overlapping splits are refused before any rollout.
 */
export async function runGate(options: RunGateOptions): Promise<GateResult> {
  const { loaded } = options;
  const config = loaded.config;
  const deps = options.deps ?? (await import("./real-deps.js")).realDeps;
  const load = (dir: string) =>
    deps.loadHarness({
      dir: path.resolve(dir),
      kind: config.harness.kind,
      command: config.harness.command,
    });
  const base = await load(options.base.harnessDir);
  const head = await load(options.head.harnessDir);
  const { heldout } = await loadSplits(loaded, (file) => deps.loadTasks(file));
  const redactor = new SecretRedactor([
    ...configuredSecrets(loaded, options.env),
    ...(options.secrets ?? []),
  ]);
  const opened = options.models ? undefined : await deps.openModels(loaded);
  try {
    // No limits: the gate measures, it does not train; the tracker only counts.
    const budget = new BudgetTracker({}, () => 0);
    const models = wrapModels({
      models: options.models ?? (opened as Models),
      loaded,
      deps,
      budget,
      callCache: options.callCache ?? true,
      redactor,
    });
    const cache = deps.createRolloutCache(path.resolve(loaded.root, config.cacheDir, "rollouts"));
    const scorer = scorerFactory({ loaded, deps, judge: models.judge ?? models.refiner });
    const evaluateFrom = (root: string) =>
      makeEvaluate({
        loaded,
        deps,
        models,
        adapter: meterAdapter({
          adapter: deps.createAdapter({ ...loaded, root }),
          budget,
          enforce: false,
        }),
        cache,
        scorer,
        budget,
        enforce: false,
        split: "heldout",
        redactor,
      });
    const baseRun = await evaluateFrom(loaded.root)({
      tasks: heldout,
      harness: base,
      label: "gate: base",
    });
    const headRun = await evaluateFrom(options.head.projectRoot ?? loaded.root)({
      tasks: heldout,
      harness: head,
      label: "gate: head",
    });
    const result = compareGate({ base: baseRun, head: headRun, gate: config.gate });
    await mkdir(options.outDir, { recursive: true });
    const write = (name: string, text: string) =>
      writeFile(path.join(options.outDir, name), redactor.text(text));
    await write("gate.json", `${JSON.stringify(redactor.json(result), null, 2)}\n`);
    await write("gate.md", renderGateComment(result, { secrets: [...redactor.values] }));
    return result;
  } finally {
    await opened?.close();
  }
}
