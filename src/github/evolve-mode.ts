import { relative, sep } from "node:path";
import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import type { EvolveOutcome } from "./action-core.js";
import { type BranchUpdate, updateHarnessBranch } from "./branch-update.js";
import { postCommitStatus, upsertStickyComment } from "./commit-status.js";
import { defaultBranchFor, sanitizeBranchName } from "./git.js";
import type { GitHubClient } from "./github-client.js";
import { formatAccuracy, type ModeContext, type ModeResult } from "./mode-context.js";
import { PullRequestNotPermittedError } from "./not-permitted-error.js";
import { closePullRequest, findOpenPullRequest, upsertPullRequest } from "./pull-request.js";
import { publishArtifact, withRolloutCache } from "./run-services.js";
import { logGroup } from "./summary.js";

/** The sticky comment the bot leaves when someone else pushed to its branch. */
export const backOffMarker = "<!-- ecdysis-backoff -->";

async function resolveBase(
  context: ModeContext,
  client: GitHubClient | undefined,
): Promise<string> {
  if (context.options.base) return context.options.base;
  if (context.run.defaultBranch) return context.run.defaultBranch;
  if (!client)
    throw new InputError(
      "workflow inputs",
      "set 'base' (or 'github-token' to look up the default branch)",
      { field: "base" },
    );
  const { data } = await client.rest.repos.get({
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
 * `mode: evolve`: run the engine, and when the held-out gate passes put the evolved harness on
 * the fixed branch and create or update its one PR; close it when the change disappeared; back
 * off when someone else pushed. Posts the gate status on its own head (the workflow token's PRs
 * start no workflows).
 */
export async function runEvolveMode(context: ModeContext): Promise<ModeResult> {
  const { engine, options, run, client } = context;
  // Checked before the (long, paid) engine run, not after it.
  if (!client && !options["dry-run"]) {
    throw new InputError(
      "workflow inputs",
      "'github-token' is required to push and open the pull request (or set dry-run: true)",
      { field: "github-token" },
    );
  }
  const facts = await engine.describe({ configPath: context.configPath });
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
        runId: `${run.runId}-${process.env.GITHUB_RUN_ATTEMPT ?? "1"}`,
        runUrl: run.runUrl,
      }),
    ),
  );
  await publishArtifact(context, outcome.outDir);
  const root = (await context.git.run(["rev-parse", "--show-toplevel"])).trim();
  const harnessPath = relative(root, outcome.targetHarnessDir).split(sep).join("/");
  const branch = sanitizeBranchName(options.branch ?? defaultBranchFor(harnessPath));
  const outputs: Record<string, string> = {
    "pull-request-operation": "none",
    "pull-request-number": "",
    "pull-request-url": "",
    branch,
    "baseline-heldout-accuracy": formatAccuracy(outcome.baselineHeldoutAccuracy),
    "final-heldout-accuracy": formatAccuracy(outcome.finalHeldoutAccuracy),
    "report-path": outcome.reportPath,
  };
  const result: ModeResult = { outputs, summaryMarkdown: outcome.summaryMarkdown, notes: [] };
  const base = await resolveBase(context, client);
  const repoRef = client ? { client, owner: run.owner, repo: run.repo } : undefined;
  const update = await logGroup("branch", () =>
    updateHarnessBranch({
      git: context.git,
      base,
      branch,
      harnessPath,
      evolvedDir: outcome.evolvedHarnessDir,
      runId: outcome.runId,
      message: commitMessage(outcome, run.runUrl),
      dryRun: options["dry-run"] || !outcome.gatePassed,
    }),
  );
  core.info(`branch ${branch}: ${update.kind}`);
  if (!repoRef) {
    result.notes.push(
      `Dry run: ${describeUpdate(update)}; nothing pushed, no pull request touched.`,
    );
    return result;
  }
  if (update.kind === "foreign") {
    const open = await findOpenPullRequest({ ...repoRef, branch });
    const text = `Someone else pushed to \`${branch}\` (${update.foreignCommits.map((sha) => sha.slice(0, 7)).join(", ")}), so Ecdysis backs off: it did not push this run's result (held-out ${outputs["baseline-heldout-accuracy"]} → ${outputs["final-heldout-accuracy"]}). Delete the branch or remove those commits to let it update the PR again.`;
    if (open) {
      await upsertStickyComment({
        ...repoRef,
        number: open.number,
        body: text,
        marker: backOffMarker,
      });
      outputs["pull-request-number"] = String(open.number);
      outputs["pull-request-url"] = open.url;
    }
    core.warning(text);
    result.notes.push(text);
    return result;
  }
  if (update.kind === "no-change" || (update.kind === "dry-run" && !update.changed)) {
    const open = await findOpenPullRequest({ ...repoRef, branch });
    if (open && !options["dry-run"]) {
      await closePullRequest({
        ...repoRef,
        number: open.number,
        reason:
          "Ecdysis closed this pull request: the latest run finds the harness on the base branch equal to its result, so there is nothing left to propose.",
      });
      outputs["pull-request-operation"] = "closed";
      outputs["pull-request-number"] = String(open.number);
      outputs["pull-request-url"] = open.url;
    }
    result.notes.push(
      open
        ? "The change disappeared: the pull request was closed."
        : "No change to the harness: no pull request.",
    );
    return result;
  }
  if (update.kind === "dry-run") {
    result.notes.push(
      outcome.gatePassed
        ? `Dry run: would push \`${branch}\` and open or update its pull request.`
        : `Held-out gate not passed (${outputs["baseline-heldout-accuracy"]} → ${outputs["final-heldout-accuracy"]}): nothing pushed.`,
    );
    return result;
  }
  const compareUrl = `${run.serverUrl}/${run.owner}/${run.repo}/compare/${encodeRef(base)}...${encodeRef(branch)}?expand=1`;
  try {
    const upsert = await upsertPullRequest({
      ...repoRef,
      branch,
      base,
      title: outcome.prTitle,
      body: outcome.prBody,
      labels: options.labels,
      reviewers: options.reviewers,
      draft: options.draft,
      pushed: update.kind === "pushed",
      compareUrl,
    });
    outputs["pull-request-operation"] = upsert.operation;
    outputs["pull-request-number"] = String(upsert.pullRequest.number);
    outputs["pull-request-url"] = upsert.pullRequest.url;
  } catch (error) {
    if (error instanceof PullRequestNotPermittedError) {
      outputs["compare-url"] = compareUrl;
      result.failure = error.message;
      return result;
    }
    throw error;
  }
  await postCommitStatus({
    ...repoRef,
    sha: update.sha,
    state: "success",
    context: outcome.statusContext,
    description: `held-out accuracy ${outputs["baseline-heldout-accuracy"]} → ${outputs["final-heldout-accuracy"]} (evolve run)`,
    targetUrl: run.runUrl,
  });
  return result;
}

function encodeRef(ref: string): string {
  return encodeURIComponent(ref).replace(/%2F/g, "/");
}

function describeUpdate(update: BranchUpdate): string {
  switch (update.kind) {
    case "dry-run":
      return update.changed ? "the harness would change" : "no change to the harness";
    case "no-change":
      return "no change to the harness";
    case "foreign":
      return "someone else pushed to the branch";
    default:
      return update.kind;
  }
}
