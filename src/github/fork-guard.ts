import * as core from "@actions/core";
import type { RunContext } from "./context.js";
import type { ModeContext } from "./mode-context.js";
import { describeFailure } from "./run-report.js";
import { upsertStickyComment } from "./sticky-comment.js";

/** The hidden marker of the one comment that explains why a fork's PR was not gated. */
const forkCommentMarker = "<!-- ecdysis-fork -->";

type PullRequest = NonNullable<RunContext["pullRequest"]>;

/** What a maintainer can do about a PR from a fork, in Markdown (commands included). */
function forkMessage(options: { pr: PullRequest; config: string }): string {
  const { pr } = options;
  const from =
    pr.headRepository === null
      ? "a fork that no longer exists"
      : `the fork \`${pr.headRepository ?? "unknown"}\``;
  const review = `ecdysis-review/pr-${pr.number}`;
  return [
    `This pull request comes from ${from}. Ecdysis does not run a fork's harness on this repository's runner with its secrets (and a fork's token cannot post the gate's status), so the held-out gate did not run: no verdict, neither pass nor fail.`,
    "",
    "A maintainer who has reviewed the harness change can gate it in either of two ways:",
    "",
    `- push the PR's head to a branch of this repository and open a pull request from it; the gate runs there with the repository's secrets:`,
    `  \`git fetch origin pull/${pr.number}/head:${review} && git push origin ${review}\``,
    `- or run the gate locally on the two harness folders: \`npx ecdysis gate --config ${options.config} --base <base harness folder> --head <PR harness folder> --out .ecdysis/gate\``,
  ].join("\n");
}

/**
 * `mode: gate` on a PR from a fork: nothing of the PR is run. The outcome is `neutral`: the step
 * succeeds (the contributor did nothing wrong), no commit status is posted (a success would let
 * an unmeasured harness pass a required gate; a fork's token cannot post one anyway), and the
 * message goes to the log as a notice, to the job summary, and — where the token may comment
 * (e.g. `pull_request_target`) — to one sticky comment.
 */
export async function reportForkPullRequest(context: ModeContext, pr: PullRequest): Promise<void> {
  const { report, client, run } = context;
  const message = forkMessage({ pr, config: context.options.config });
  report.set("gate-verdict", "neutral");
  report.summaryMarkdown = `## Ecdysis gate: not run (pull request from a fork)\n\n${message}\n`;
  report.note(message.split("\n")[0]);
  core.notice(message.split("\n")[0]);
  if (!client) return;
  try {
    await upsertStickyComment({
      client,
      owner: run.owner,
      repo: run.repo,
      number: pr.number,
      body: message,
      marker: forkCommentMarker,
    });
  } catch (error) {
    // The fork's read-only token: the notice and the job summary carry the message instead.
    core.info(`fork notice not posted as a comment: ${describeFailure(error)}`);
  }
}
