import { sep } from "node:path";
import { postCommitStatus, upsertStickyComment } from "./commit-status.js";
import type { GateTarget } from "./gate-target.js";
import type { Git } from "./git.js";
import { treeAt } from "./harness-commits.js";
import type { ModeContext } from "./mode-context.js";
import type { RepoRef } from "./repo-ref.js";

/** The status description of a PR that leaves the harness as the base has it. */
const untouchedDescription = "harness unchanged from the base: nothing to gate";

/**
 * The PR leaves the harness folder exactly as the base commit has it: the same tree at the
 * checkout's HEAD, and nothing uncommitted or untracked there. Such a PR cannot change held-out
 * accuracy (the gate runs the harness folder alone, on the base's tasks).
 */
export async function harnessUntouched(options: {
  git: Git;
  baseSha: string;
  harnessRel: string;
}): Promise<boolean> {
  const path = options.harnessRel.split(sep).join("/");
  const base = await treeAt(options.git, options.baseSha, path);
  if (base === undefined || base !== (await treeAt(options.git, "HEAD", path))) return false;
  const status = await options.git.run([
    "status",
    "--porcelain",
    "--untracked-files=all",
    "--",
    path,
  ]);
  return status.trim() === "";
}

/**
 * The outcome of a PR that does not touch the harness: `neutral`, no evaluation, and a success
 * status on the head, so a required `ecdysis/heldout` (an always-run job, no `paths:` filter)
 * never blocks a PR it has nothing to say about. An earlier gate comment is updated to say so;
 * none is created.
 */
export async function reportUntouched(
  context: ModeContext,
  options: { target: GateTarget; repoRef: RepoRef; number: number; headSha: string },
): Promise<void> {
  const { report } = context;
  const { identity } = options.target;
  report.set("gate-verdict", "neutral");
  report.summaryMarkdown = `## Ecdysis gate: not run\n\nThis pull request leaves the harness \`${options.target.harnessRel.split(sep).join("/")}\` as the base has it: ${untouchedDescription}.\n`;
  report.note(
    `The harness is unchanged from the base: no evaluation; \`${identity.statusContext}\` set to success.`,
  );
  await report.attempt(() =>
    postCommitStatus({
      ...options.repoRef,
      sha: options.headSha,
      state: "success",
      context: identity.statusContext,
      description: untouchedDescription,
      targetUrl: context.run.runUrl,
    }),
  );
  await report.attempt(() =>
    upsertStickyComment({
      ...options.repoRef,
      number: options.number,
      body: `### Ecdysis held-out gate\n\nThe latest commit leaves the harness as the base has it: ${untouchedDescription}.`,
      marker: identity.gateMarker,
      onlyIfPresent: true,
    }),
  );
}
