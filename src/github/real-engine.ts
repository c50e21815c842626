import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
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
import type { ActionEngine, LlmOverrides } from "./action-engine.js";
import { applyOverrides } from "./engine-overrides.js";
import { evolvePhaseForAction } from "./evolve-phase-engine.js";

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
  phase,
}) => {
  const loaded = applyOverrides(await loadConfig(configPath), llm, overrides);
  const result = await runEvolve({
    loaded,
    simServer: serveSimModel,
    outDir,
    phase,
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
  concurrency,
  runUrl,
}) => {
  const loaded = applyOverrides(await loadConfig(configPath), llm, { concurrency });
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
const evalForAction: ActionEngine["eval"] = async ({ configPath, outDir, llm, concurrency }) => {
  const loaded = applyOverrides(await loadConfig(configPath), llm, { concurrency });
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
    evolvePhase: evolvePhaseForAction(actionVersion()),
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
