import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import type { EvolveOutcome } from "./action-engine.js";
import { updateHarnessBranch } from "./branch-update.js";
import { planProposal, reportDeclined } from "./evolve-history.js";
import { runEvolvePhase } from "./evolve-phase-mode.js";
import { publishUpdate } from "./evolve-publish.js";
import { type EvolveTarget, resolveEvolveTarget } from "./evolve-target.js";
import { snapshotSeed } from "./harness-commits.js";
import { evolveOverrides, formatAccuracy, llmOverrides, type ModeContext } from "./mode-context.js";
import { publishArtifact, withRolloutCache } from "./run-services.js";
import { logGroup } from "./summary.js";

function commitMessage(title: string, outcome: EvolveOutcome, runUrl: string): string {
  const subject = title.replace(/\s+/g, " ").trim().slice(0, 120);
  return `${subject}\n\nHeld-out accuracy ${formatAccuracy(outcome.baselineHeldoutAccuracy)} → ${formatAccuracy(outcome.finalHeldoutAccuracy)}.\nRun: ${runUrl}`;
}

/** The engine's evolve run, between a restore and a save of the rollout cache. */
function runEngine(context: ModeContext, target: EvolveTarget): Promise<EvolveOutcome> {
  const { engine, options, run } = context;
  return withRolloutCache(context, target.facts, () =>
    logGroup("evolve", () =>
      engine.evolve({
        configPath: context.configPath,
        outDir: context.outDir,
        llm: llmOverrides(options),
        overrides: evolveOverrides(options),
        phase: options.phase === "finish" ? "finish" : "all",
        runId: `${run.runId}-${run.runAttempt}`,
        runUrl: run.runUrl,
      }),
    ),
  );
}

/**
 * `mode: evolve`: run the engine, and when the held-out gate passes carry the run's change onto
 * the base on the harness's one branch and create or update its one PR; close it when the change
 * disappeared; back off when someone else pushed; refuse when the change does not merge onto a
 * base that moved; never propose again a change a human closed. Outputs are set as they become
 * known.
 */
export async function runEvolveMode(context: ModeContext): Promise<void> {
  const { options, run, client, report } = context;
  if (options.phase === "search" || options.phase === "measure") return runEvolvePhase(context);
  // Checked before the (long, paid) engine run, not after it.
  if (!client && !options["dry-run"]) {
    throw new InputError(
      "workflow inputs",
      "'github-token' is required to push and open the pull request (or set dry-run: true)",
      { field: "github-token" },
    );
  }
  const target = await resolveEvolveTarget(context);
  const { git, harnessPath, base, branch, identity } = target;
  report.setAll({
    "pull-request-operation": "none",
    "pull-request-number": "",
    "pull-request-url": "",
    branch,
  });
  const seed = await snapshotSeed({ git, harnessPath });
  const outcome = await runEngine(context, target);
  report.summaryMarkdown = outcome.summaryMarkdown;
  report.setAll({
    "baseline-heldout-accuracy": formatAccuracy(outcome.baselineHeldoutAccuracy),
    "final-heldout-accuracy": formatAccuracy(outcome.finalHeldoutAccuracy),
    "report-path": outcome.reportPath,
  });
  await publishArtifact(context, outcome.outDir, harnessPath);
  if (outcome.failure) report.problem(outcome.failure);
  const plan = await planProposal({ context, target, seed, outcome });
  if (plan?.decision.kind === "declined") return reportDeclined(context, plan.decision);
  const update = await logGroup("branch", () =>
    updateHarnessBranch({
      git,
      base,
      branch,
      harnessPath,
      seed,
      evolvedDir: outcome.evolvedHarnessDir,
      runId: outcome.runId,
      message: commitMessage(identity.title(outcome.prTitle), outcome, run.runUrl),
      dryRun: options["dry-run"] || !outcome.gatePassed,
    }),
  );
  core.info(`branch ${branch}: ${update.kind}`);
  await publishUpdate({ context, update, outcome, base, branch, seed, identity, plan });
}
