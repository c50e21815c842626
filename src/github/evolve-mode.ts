import { relative, sep } from "node:path";
import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import type { EvolveOutcome } from "./action-engine.js";
import { updateHarnessBranch } from "./branch-update.js";
import { publishUpdate } from "./evolve-publish.js";
import { defaultBranchFor, type Git, sanitizeBranchName } from "./git.js";
import { snapshotSeed } from "./harness-commits.js";
import { formatAccuracy, type ModeContext } from "./mode-context.js";
import { publishArtifact, withRolloutCache } from "./run-services.js";
import { logGroup } from "./summary.js";

/**
 * The branch the PR targets: the `base` input, else — like create-pull-request — the branch the
 * workflow checked out (so a dispatch from another branch proposes to that branch, measured on
 * its own harness). A checkout on a tag or a bare commit has no such branch: the run refuses.
 */
async function resolveBase(context: ModeContext, git: Git): Promise<string> {
  if (context.options.base) return context.options.base;
  const symbolic = await git.exec(["symbolic-ref", "--quiet", "--short", "HEAD"]);
  if (symbolic.code === 0 && symbolic.stdout.trim() !== "") return symbolic.stdout.trim();
  const ref = context.run.ref ?? "";
  if (ref.startsWith("refs/heads/")) return ref.slice("refs/heads/".length);
  throw new InputError(
    "workflow inputs",
    `the checkout is not on a branch (GITHUB_REF '${ref || "unset"}'), so there is no branch to propose to: set 'base' to the branch the pull request should target`,
    { field: "base" },
  );
}

/** The repository's default branch, when the event payload or the API says it. */
async function defaultBranchOf(context: ModeContext): Promise<string | undefined> {
  if (context.run.defaultBranch) return context.run.defaultBranch;
  if (!context.client) return undefined;
  const { data } = await context.client.rest.repos.get({
    owner: context.run.owner,
    repo: context.run.repo,
  });
  return data.default_branch;
}

function commitMessage(outcome: EvolveOutcome, runUrl: string): string {
  const title = outcome.prTitle.replace(/\s+/g, " ").trim().slice(0, 120);
  return `${title}\n\nHeld-out accuracy ${formatAccuracy(outcome.baselineHeldoutAccuracy)} → ${formatAccuracy(outcome.finalHeldoutAccuracy)}.\nRun: ${runUrl}`;
}

/**
 * `mode: evolve`: run the engine, and when the held-out gate passes carry the run's change onto
 * the base on the fixed branch and create or update its one PR; close it when the change
 * disappeared; back off when someone else pushed; refuse when the change does not merge onto a
 * base that moved. Outputs are set as they become known.
 */
export async function runEvolveMode(context: ModeContext): Promise<void> {
  const { engine, options, run, client, report } = context;
  // Checked before the (long, paid) engine run, not after it.
  if (!client && !options["dry-run"]) {
    throw new InputError(
      "workflow inputs",
      "'github-token' is required to push and open the pull request (or set dry-run: true)",
      { field: "github-token" },
    );
  }
  const facts = await engine.describe({ configPath: context.configPath });
  const root = (await context.git.run(["rev-parse", "--show-toplevel"])).trim();
  const git = context.git.at(root);
  const harnessPath = relative(root, facts.harnessDir).split(sep).join("/");
  const base = await resolveBase(context, git);
  const defaultBranch = await defaultBranchOf(context);
  const branch = sanitizeBranchName(
    options.branch ??
      defaultBranchFor(harnessPath, defaultBranch && base !== defaultBranch ? base : undefined),
  );
  report.setAll({
    "pull-request-operation": "none",
    "pull-request-number": "",
    "pull-request-url": "",
    branch,
  });
  const seed = await snapshotSeed({ git, harnessPath });
  const outcome = await withRolloutCache(context, facts, () =>
    logGroup("evolve", () =>
      engine.evolve({
        configPath: context.configPath,
        outDir: context.outDir,
        llm: { baseUrl: options["base-url"], apiKey: options["api-key"], model: options.model },
        overrides: {
          budgetRollouts: options["budget-rollouts"],
          budgetCostUsd: options["budget-cost-usd"],
          maxIterations: options["max-iterations"],
          strategy: options.strategy,
        },
        runId: `${run.runId}-${run.runAttempt}`,
        runUrl: run.runUrl,
      }),
    ),
  );
  report.summaryMarkdown = outcome.summaryMarkdown;
  report.setAll({
    "baseline-heldout-accuracy": formatAccuracy(outcome.baselineHeldoutAccuracy),
    "final-heldout-accuracy": formatAccuracy(outcome.finalHeldoutAccuracy),
    "report-path": outcome.reportPath,
  });
  await publishArtifact(context, outcome.outDir, harnessPath);
  if (outcome.failure) report.problem(outcome.failure);
  const update = await logGroup("branch", () =>
    updateHarnessBranch({
      git,
      base,
      branch,
      harnessPath,
      seed,
      evolvedDir: outcome.evolvedHarnessDir,
      runId: outcome.runId,
      message: commitMessage(outcome, run.runUrl),
      dryRun: options["dry-run"] || !outcome.gatePassed,
    }),
  );
  core.info(`branch ${branch}: ${update.kind}`);
  await publishUpdate({ context, update, outcome, base, branch, seed });
}
