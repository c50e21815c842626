import * as core from "@actions/core";
import type { EvolveOutcome } from "./action-engine.js";
import type { BranchUpdate } from "./branch-update.js";
import { changeMarker } from "./change-fingerprint.js";
import { proposalNotice } from "./closed-pr-memory.js";
import { postCommitStatus, upsertStickyComment } from "./commit-status.js";
import type { ProposalPlan } from "./evolve-history.js";
import type { HarnessIdentity } from "./harness-identity.js";
import type { ModeContext } from "./mode-context.js";
import { PullRequestNotPermittedError } from "./not-permitted-error.js";
import {
  closePullRequest,
  decoratePullRequest,
  findOpenPullRequest,
  upsertPullRequest,
} from "./pull-request.js";
import type { RepoRef } from "./repo-ref.js";
import { describeFailure } from "./run-report.js";

/** The sticky comment the bot leaves when someone else pushed to its branch. */
const backOffMarker = "<!-- ecdysis-backoff -->";

/** What `publishUpdate` works with. */
interface Publish {
  context: ModeContext;
  update: BranchUpdate;
  outcome: EvolveOutcome;
  base: string;
  branch: string;
  seed: string;
  identity: HarnessIdentity;
  /** The branch's history as it bears on this proposal (absent: nothing to propose). */
  plan?: ProposalPlan;
}

function short(shas: string[]): string {
  return shas.map((sha) => sha.slice(0, 7)).join(", ");
}

function encodeRef(ref: string): string {
  return encodeURIComponent(ref).replace(/%2F/g, "/");
}

/** The warning a PR carries when the base's harness changed while the run was going. */
function mergedNotice(options: { base: string; seed: string; statusContext: string }): string {
  return [
    "> [!WARNING]",
    `> The harness on \`${options.base}\` changed while this run was going. This pull request carries the run's change onto it with a 3-way merge, so it keeps that change; but the accuracies below were measured on the harness the run started from (${options.seed.slice(0, 7)}), not on this merge, so no \`${options.statusContext}\` status is posted. Re-run the workflow to measure it.`,
  ].join("\n");
}

/**
 * Turn the branch update into the PR's state, outputs and notes: dry-run and held-out-gate
 * notes, back-off, refusal on conflict, closing a PR whose change disappeared, or the PR upsert
 * followed by labels, reviewers and the gate status (each failure recorded, none losing outputs).
 */
export async function publishUpdate(options: Publish): Promise<void> {
  const { context, update, outcome } = options;
  const { report, client, run } = context;
  const heldout = `${report.outputs["baseline-heldout-accuracy"]} → ${report.outputs["final-heldout-accuracy"]}`;
  const dryRun = context.options["dry-run"];
  const repoRef = client && !dryRun ? { client, owner: run.owner, repo: run.repo } : undefined;
  if (update.kind === "conflict") {
    report.set("base-harness", "conflict");
    const text = `The run's change does not merge onto \`${options.base}\`: its harness changed during the run${update.baseCommits.length > 0 ? ` (${update.baseCommits.join(", ")})` : ""} and conflicts in ${update.files.map((file) => `\`${file}\``).join(", ")}. Nothing was pushed and no pull request was touched (the base's change is never written over); re-run the workflow to evolve from the new base.`;
    core.warning(text);
    // Only a result that would have been proposed makes the refusal a failure.
    if (outcome.gatePassed && !dryRun) report.problem(text);
    else report.note(text);
    return;
  }
  if (update.kind !== "foreign") report.set("base-harness", update.baseHarness);
  if (update.kind === "foreign") {
    if (repoRef) return backOff({ ...options, repoRef, update, heldout });
    report.note("Dry run: someone else pushed to the branch; nothing pushed.");
    return;
  }
  if (update.kind === "no-change") {
    if (repoRef) return closeStale({ ...options, repoRef });
    report.note("No change to the harness: no pull request.");
    return;
  }
  if (update.kind === "dry-run") {
    report.note(
      outcome.gatePassed
        ? `Dry run: would push \`${options.branch}\` and open or update its pull request; nothing pushed, no pull request touched.`
        : `Held-out gate not passed (${heldout}): nothing pushed.`,
    );
    return;
  }
  if (!repoRef) return;
  await openOrUpdate({ ...options, repoRef, update });
}

async function backOff(
  options: Publish & {
    repoRef: RepoRef;
    update: Extract<BranchUpdate, { kind: "foreign" }>;
    heldout: string;
  },
): Promise<void> {
  const { context, repoRef, branch, update } = options;
  const open = await findOpenPullRequest({ ...repoRef, branch });
  const text = `Someone else pushed to \`${branch}\` (${short(update.foreignCommits)}), so Ecdysis backs off: it did not push this run's result (held-out ${options.heldout}). Delete the branch or remove those commits to let it update the PR again.`;
  if (open) {
    context.report.setAll({
      "pull-request-number": String(open.number),
      "pull-request-url": open.url,
    });
    await context.report.attempt(() =>
      upsertStickyComment({ ...repoRef, number: open.number, body: text, marker: backOffMarker }),
    );
  }
  core.warning(text);
  context.report.note(text);
}

async function closeStale(options: Publish & { repoRef: RepoRef }): Promise<void> {
  const { context, repoRef, branch } = options;
  const open = await findOpenPullRequest({ ...repoRef, branch });
  if (!open) {
    context.report.note("No change to the harness: no pull request.");
    return;
  }
  context.report.setAll({
    "pull-request-number": String(open.number),
    "pull-request-url": open.url,
  });
  await closePullRequest({
    ...repoRef,
    number: open.number,
    body: open.body,
    reason:
      "Ecdysis closed this pull request: the latest run finds the harness on the base branch equal to its result, so there is nothing left to propose.",
  });
  context.report.set("pull-request-operation", "closed");
  context.report.note("The change disappeared: the pull request was closed.");
}

/**
 * The PR body: the change's fingerprint (hidden, first, so no cut can lose it), the link to a PR
 * a human closed, the merged-base warning, then the engine's body.
 */
function pullRequestBody(options: Publish, mergedWarning: string): string {
  const { plan, outcome } = options;
  return [
    plan ? changeMarker(plan.fingerprint) : "",
    plan ? (proposalNotice(plan.decision) ?? "") : "",
    mergedWarning,
    outcome.prBody,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/**
 * The held-out status on the branch's head, whether this run moved it or found it as it would
 * have made it (a re-run after the PR could not be opened, a re-proposed change): every bot PR
 * carries it. A merge nobody measured gets none.
 */
async function postEvolveStatus(
  options: Publish & { repoRef: RepoRef; sha: string },
): Promise<void> {
  const { report, run } = options.context;
  await report.attempt(() =>
    postCommitStatus({
      ...options.repoRef,
      sha: options.sha,
      state: "success",
      context: options.identity.statusContext,
      description: `held-out accuracy ${report.outputs["baseline-heldout-accuracy"]} → ${report.outputs["final-heldout-accuracy"]} (evolve run)`,
      targetUrl: run.runUrl,
    }),
  );
}

async function openOrUpdate(
  options: Publish & {
    repoRef: RepoRef;
    update: Extract<BranchUpdate, { kind: "pushed" | "unchanged" }>;
  },
): Promise<void> {
  const { context, repoRef, update, outcome, base, branch } = options;
  const { report, run } = context;
  const merged = update.baseHarness === "merged";
  const notice = merged
    ? mergedNotice({ base, seed: options.seed, statusContext: options.identity.statusContext })
    : "";
  if (merged) report.note(notice.replace(/^> ?(\[!WARNING\])?\n?/gm, ""));
  else await postEvolveStatus({ ...options, sha: update.sha });
  const compareUrl = `${run.serverUrl}/${run.owner}/${run.repo}/compare/${encodeRef(base)}...${encodeRef(branch)}?expand=1`;
  let upsert: Awaited<ReturnType<typeof upsertPullRequest>>;
  try {
    upsert = await upsertPullRequest({
      ...repoRef,
      branch,
      base,
      title: options.identity.title(outcome.prTitle),
      body: pullRequestBody(options, notice),
      draft: context.options.draft,
      pushed: update.kind === "pushed",
      compareUrl,
    });
  } catch (error) {
    if (error instanceof PullRequestNotPermittedError) report.set("compare-url", compareUrl);
    throw error;
  }
  report.setAll({
    "pull-request-operation": upsert.operation,
    "pull-request-number": String(upsert.pullRequest.number),
    "pull-request-url": upsert.pullRequest.url,
  });
  await decoratePullRequest({
    ...repoRef,
    number: upsert.pullRequest.number,
    labels: context.options.labels,
    reviewers: context.options.reviewers,
    created: upsert.operation === "created",
    onProblem: (error) => report.problem(describeFailure(error)),
  });
}
