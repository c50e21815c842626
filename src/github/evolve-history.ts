import * as core from "@actions/core";
import type { EvolveOutcome } from "./action-engine.js";
import { cleanupNote, deleteSettledBranch } from "./branch-cleanup.js";
import { changeFingerprint } from "./change-fingerprint.js";
import {
  type BranchHistory,
  branchHistory,
  decideProposal,
  declinedNote,
  type ProposalDecision,
} from "./closed-pr-memory.js";
import type { EvolveTarget } from "./evolve-target.js";
import { evolvedCommit } from "./harness-commits.js";
import type { ModeContext } from "./mode-context.js";

/** A run's proposal as the branch's history lets it go ahead. */
export interface ProposalPlan {
  decision: ProposalDecision;
  /** Fingerprint of the run's change (written into the PR body). */
  fingerprint: string;
}

/** Delete the branch of a merged or closed PR (unless `delete-branch: false`), saying so. */
async function cleanUp(context: ModeContext, target: EvolveTarget, history: BranchHistory) {
  const closed = history.lastClosed;
  if (!closed || !context.options["delete-branch"]) return;
  const result = await deleteSettledBranch({
    git: target.git,
    base: target.base,
    branch: target.branch,
  });
  const note = cleanupNote({ branch: target.branch, closed, result });
  if (note) {
    core.info(note);
    context.report.note(note);
  }
}

/**
 * Read the history of the run's branch before touching it: the branch of a PR that was merged or
 * closed is deleted, and a change that would be proposed is checked against the PR a human
 * closed. Undefined when the run proposes nothing (dry run, no token, held-out gate not passed).
 */
export async function planProposal(options: {
  context: ModeContext;
  target: EvolveTarget;
  seed: string;
  outcome: EvolveOutcome;
}): Promise<ProposalPlan | undefined> {
  const { context, target, seed, outcome } = options;
  const { client, run } = context;
  if (!client || context.options["dry-run"]) return undefined;
  const history = await branchHistory({
    client,
    owner: run.owner,
    repo: run.repo,
    branch: target.branch,
  });
  await cleanUp(context, target, history);
  if (!outcome.gatePassed) return undefined;
  const { git, harnessPath } = target;
  const evolvedDir = outcome.evolvedHarnessDir;
  const evolved = await evolvedCommit({ git, seed, harnessPath, evolvedDir });
  const fingerprint = await changeFingerprint({ git, seed, evolved, harnessPath });
  const decision = decideProposal({
    history,
    fingerprint,
    reopenInput: context.options["reopen-closed"],
  });
  return { decision, fingerprint };
}

/** A change a human already closed: nothing pushed, nothing opened, and the step says why. */
export function reportDeclined(
  context: ModeContext,
  decision: Extract<ProposalDecision, { kind: "declined" }>,
): void {
  const note = declinedNote(decision.closed);
  core.notice(note);
  context.report.note(note);
}
