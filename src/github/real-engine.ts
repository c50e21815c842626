import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defaultApiKeyEnv, type LoadedConfig } from "../config/config-schema.js";
import { ecdysisVersion } from "../config/ecdysis-version.js";
import { gitState } from "../config/git-state.js";
import { loadConfig } from "../config/load-config.js";
import { writeEvalOutput } from "../eval/eval-output.js";
import { createProgress } from "../eval/progress.js";
import { runEval } from "../eval/run-eval.js";
import { learnedNothing, runEvolve, runGate } from "../evolve/index.js";
import { loadHarness } from "../harness/load-harness.js";
import {
  renderGateComment,
  renderJobSummary,
  renderPrBody,
  sandboxWarning,
  stopSentence,
  writeEvolveReports,
  writeGateReport,
} from "../report/index.js";
import { serveSimModel } from "../sim/index.js";
import type { ActionEngine, EvolveOverrides, LlmOverrides } from "./action-engine.js";

/**
 * Apply the Action's endpoint inputs to a loaded config: `base-url` switches the agent model to
 * an OpenAI-compatible endpoint, `model` renames it, `api-key` is handed over through the
 * environment variable the config names (the config never holds the key itself).
 */
function applyOverrides(
  loaded: LoadedConfig,
  llm: LlmOverrides,
  overrides: EvolveOverrides = {},
): LoadedConfig {
  const model = { ...loaded.config.model };
  if (llm.baseUrl) Object.assign(model, { provider: "openai", baseUrl: llm.baseUrl });
  if (llm.model) model.model = llm.model;
  if (llm.apiKey) {
    const { refiner, probe, judge } = loaded.config;
    for (const name of [
      model.apiKeyEnv ?? defaultApiKeyEnv,
      refiner && (refiner.apiKeyEnv ?? defaultApiKeyEnv),
      probe && (probe.apiKeyEnv ?? defaultApiKeyEnv),
      judge && (judge.apiKeyEnv ?? defaultApiKeyEnv),
    ]) {
      if (name && !process.env[name]) process.env[name] = llm.apiKey;
    }
  }
  const evolve = { ...loaded.config.evolve, budget: { ...loaded.config.evolve.budget } };
  if (overrides.budgetRollouts) evolve.budget.rollouts = overrides.budgetRollouts;
  if (overrides.budgetCostUsd) evolve.budget.costUsd = overrides.budgetCostUsd;
  if (overrides.maxIterations) evolve.maxIterations = overrides.maxIterations;
  if (overrides.strategy) evolve.strategy = overrides.strategy;
  return { ...loaded, config: { ...loaded.config, model, evolve } };
}

function secretsOf(llm: LlmOverrides): string[] {
  return llm.apiKey ? [llm.apiKey] : [];
}

/** Progress in the job log: plain lines (start, every ~10 s, end with accuracy) under CI. */
function logProgress() {
  return createProgress({ stream: process.stderr, env: process.env });
}

/** Reads the config and harness an Action run works on. */
const describeProject: ActionEngine["describe"] = async ({ configPath }) => {
  const loaded = await loadConfig(configPath);
  const { config } = loaded;
  const harnessDir = resolve(loaded.root, config.harness.dir);
  const harness = await loadHarness({
    dir: harnessDir,
    kind: config.harness.kind,
    command: config.harness.command,
  });
  return {
    harnessDir,
    cacheDir: resolve(loaded.root, config.cacheDir),
    configHash: loaded.hash,
    harnessHash: harness.hash,
    taskFiles: [config.tasks.train, config.tasks.heldout].map((file) => resolve(loaded.root, file)),
    statusContext: config.gate.statusContext,
  };
};

/** Evolves the harness and renders the pull request and job summary. */
const evolveForAction: ActionEngine["evolve"] = async ({
  configPath,
  outDir,
  llm,
  overrides,
  runId,
  runUrl,
}) => {
  const loaded = applyOverrides(await loadConfig(configPath), llm, overrides);
  const result = await runEvolve({
    loaded,
    simServer: serveSimModel,
    outDir,
    progress: logProgress(),
    metadata: { ecdysisVersion: actionVersion(), git: await gitState(loaded.root) },
  });
  const secrets = secretsOf(llm);
  const reports = await writeEvolveReports({ outDir, result, secrets });
  const pr = renderPrBody(result, { runId, reportUrl: runUrl, secrets });
  return {
    runId,
    baselineHeldoutAccuracy: result.baseline.heldout.accuracy,
    finalHeldoutAccuracy: result.final.heldout.accuracy,
    gatePassed: result.gate.passed,
    targetHarnessDir: resolve(loaded.root, loaded.config.harness.dir),
    evolvedHarnessDir: join(outDir, "harness"),
    reportPath: reports.markdown,
    statusContext: loaded.config.gate.statusContext,
    prTitle: pr.title,
    prBody: pr.body,
    summaryMarkdown: renderJobSummary({ evolve: result, reportUrl: runUrl, secrets }),
    outDir,
    ...(learnedNothing(result) ? { failure: `ecdysis evolve ${stopSentence(result)}` } : {}),
  };
};

/** Gates base vs head harness on held-out accuracy and renders the comment. */
const gateForAction: ActionEngine["gate"] = async ({
  configPath,
  baseHarnessDir,
  headHarnessDir,
  headProjectRoot,
  outDir,
  llm,
  runUrl,
}) => {
  const loaded = applyOverrides(await loadConfig(configPath), llm);
  const result = await runGate({
    base: { harnessDir: baseHarnessDir },
    head: { harnessDir: headHarnessDir, projectRoot: headProjectRoot },
    loaded,
    simServer: serveSimModel,
    outDir,
  });
  const secrets = secretsOf(llm);
  const reportPath = await writeGateReport({ outDir, result, secrets });
  return {
    verdict: result.verdict,
    baseAccuracy: result.base.score.accuracy,
    headAccuracy: result.head.score.accuracy,
    description: result.reason,
    statusContext: result.statusContext,
    commentBody: renderGateComment(result, { reportUrl: runUrl, secrets }),
    summaryMarkdown: renderJobSummary({ gate: result, reportUrl: runUrl, secrets }),
    reportPath,
    outDir,
  };
};

/** Evaluates the harness on the held-out split and writes eval.md. */
const evalForAction: ActionEngine["eval"] = async ({ configPath, outDir, llm }) => {
  const loaded = applyOverrides(await loadConfig(configPath), llm);
  // The checkout may be a pull request's: its code never runs unsandboxed under `auto`.
  const untrusted = "the Action runs the checked-out harness, which may be a pull request's";
  const run = await runEval({
    loaded,
    simServer: serveSimModel,
    split: "heldout",
    progress: logProgress(),
    untrusted,
  });
  await writeEvalOutput(outDir, { results: run.results, records: run.records });
  const result = run.results["eval.json"];
  const [low, high] = result.interval;
  const warning = sandboxWarning(run.sandbox);
  const markdown = [
    "# Ecdysis eval",
    "",
    ...(warning ? [warning, ""] : []),
    "| split | accuracy | 95% interval | tasks | rollouts | cost |",
    "|---|---|---|---|---|---|",
    `| heldout | ${(result.accuracy * 100).toFixed(1)}% | ${(low * 100).toFixed(1)}–${(high * 100).toFixed(1)}% | ${result.n} | ${result.cost.rollouts} | $${result.cost.costUsd.toFixed(4)} |`,
    "",
  ].join("\n");
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, "eval.md"), markdown);
  return {
    accuracy: result.accuracy,
    n: result.n,
    summaryMarkdown: markdown,
    reportPath: join(outDir, "eval.md"),
    outDir,
  };
};

/** The engine of src/config, src/eval, src/evolve and src/report behind the Action's port. */
export function realEngine(): ActionEngine {
  return {
    describe: describeProject,
    evolve: evolveForAction,
    gate: gateForAction,
    eval: evalForAction,
  };
}

/**
 * The version of the Ecdysis running this Action (its package.json beside dist/), or undefined
 * when the Action was vendored without it: metadata and part of the run key, never a reason to fail.
 */
function actionVersion(): string | undefined {
  try {
    return ecdysisVersion();
  } catch {
    return undefined;
  }
}
