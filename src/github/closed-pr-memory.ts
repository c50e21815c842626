import { fingerprintIn } from "./change-fingerprint.js";
import type { RepoRef } from "./repo-ref.js";

/** The label that asks the bot to propose again a change a human closed (put it on the closed PR). */
const reopenLabel = "ecdysis-reopen";

/** The hidden marker the bot puts in the body of a PR it closed itself (no human decision). */
export const closedByBotMarker = "<!-- ecdysis-closed-by-bot -->";

/** The latest closed PR of the bot's branch. */
export interface ClosedPullRequest {
  number: number;
  url: string;
  merged: boolean;
  /** The bot closed it (its change disappeared), not a human. */
  byBot: boolean;
  /** Fingerprint of the change it proposed (absent on PRs opened before fingerprints). */
  fingerprint?: string;
  labels: string[];
}

/** What the bot's branch has seen: its open PR, else its latest closed one. */
export interface BranchHistory {
  open: boolean;
  lastClosed?: ClosedPullRequest;
}

/** What a run that would propose a change does, given the branch's history. */
export type ProposalDecision =
  /** No human decision in the way: create or update the PR as usual. */
  | { kind: "propose" }
  /** A human closed this very change unmerged: it is not proposed again. */
  | { kind: "declined"; closed: ClosedPullRequest }
  /** A human closed an earlier, different change: a new PR links the closed one. */
  | { kind: "supersede"; closed: ClosedPullRequest }
  /** The same change, asked for again on purpose (the label or the workflow input). */
  | { kind: "reopen"; closed: ClosedPullRequest; by: "label" | "input" };

/** Whether `branch` has an open PR, else its closed PR with the highest number (one request). */
export async function branchHistory(options: RepoRef & { branch: string }): Promise<BranchHistory> {
  const { data } = await options.client.rest.pulls.list({
    owner: options.owner,
    repo: options.repo,
    state: "all",
    head: `${options.owner}:${options.branch}`,
    sort: "created",
    direction: "desc",
    per_page: 30,
  });
  if (data.some((pull) => pull.state === "open")) return { open: true };
  const latest = data.sort((a, b) => b.number - a.number)[0];
  if (!latest) return { open: false };
  const body = latest.body ?? "";
  return {
    open: false,
    lastClosed: {
      number: latest.number,
      url: latest.html_url,
      merged: latest.merged_at !== null && latest.merged_at !== undefined,
      byBot: body.includes(closedByBotMarker),
      fingerprint: fingerprintIn(body),
      labels: latest.labels.map((label) => label.name ?? ""),
    },
  };
}

/**
 * Human decisions stick: a change a human closed unmerged is not proposed again while it is the
 * same change; a different one is (linking the closed PR); the label on the closed PR or the
 * `reopen-closed` input proposes it again on purpose. A merged PR or one the bot closed itself
 * is no decision against anything.
 */
export function decideProposal(options: {
  history: BranchHistory;
  fingerprint: string;
  reopenInput: boolean;
}): ProposalDecision {
  const closed = options.history.lastClosed;
  if (options.history.open || !closed || closed.merged || closed.byBot) return { kind: "propose" };
  if (closed.fingerprint !== options.fingerprint) return { kind: "supersede", closed };
  if (closed.labels.includes(reopenLabel)) return { kind: "reopen", closed, by: "label" };
  if (options.reopenInput) return { kind: "reopen", closed, by: "input" };
  return { kind: "declined", closed };
}

/** The note a declined change leaves in the log and the job summary. */
export function declinedNote(closed: ClosedPullRequest): string {
  return `A human closed #${closed.number} (${closed.url}) without merging it, and this run found the same change again, so it is not proposed again: nothing pushed, no pull request opened. To propose it anyway, add the label \`${reopenLabel}\` to #${closed.number} or run the workflow with \`reopen-closed: true\`; a different change opens a new pull request by itself.`;
}

/** The line a new PR's body opens with when it follows a PR a human closed. */
export function proposalNotice(decision: ProposalDecision): string | undefined {
  if (decision.kind === "supersede")
    return `> [!NOTE]\n> A different change from #${decision.closed.number}, which was closed without merging.`;
  if (decision.kind === "reopen")
    return `> [!NOTE]\n> Proposed again on purpose (${decision.by === "label" ? `label \`${reopenLabel}\` on #${decision.closed.number}` : "workflow input `reopen-closed`"}): #${decision.closed.number}, closed without merging, proposed this same change.`;
  return undefined;
}
