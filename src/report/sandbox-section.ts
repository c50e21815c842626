import type { SandboxStatus } from "../agent/sandbox/sandbox-policy.js";
import type { ReachFlag, ReachKind } from "../harness/code-reaches.js";
import { cell, codeSpan } from "./format.js";

/** What a reach kind lets code at, as a reviewer reads it. */
const kindWords: Record<ReachKind, string> = {
  environment: "environment variables",
  files: "files and folders",
  network: "the network",
  processes: "other processes",
};

/**
 * The warning line of a run whose command harness ran without the sandbox (`harness.sandbox:
 * off`, or `auto` where the machine has none): shown first in the summary, the report, the PR
 * body and the job summary. Empty string when the harness ran sandboxed (or is built in).
 */
export function sandboxWarning(status: SandboxStatus | undefined): string {
  if (!status?.warning) return "";
  return `> [!WARNING]\n> **Unsandboxed agent code.** ${cell(status.warning, 600)}`;
}

/** The same warning as one plain line for a terminal (empty when none). */
export function sandboxWarningLine(status: SandboxStatus | undefined): string {
  return status?.warning ? `warning: ${status.warning}\n` : "";
}

/**
 * "Code reach for the reviewer": each code file whose new version reaches for more environment,
 * files, network or processes than the old one, with the words that do. Flagged, not refused:
 * the sandbox contains the code whatever it does; the reviewer decides whether to merge it.
 * Empty string when nothing new is reached for.
 */
export function codeReachSection(reaches: ReachFlag[] | undefined, against = "the seed"): string {
  if (!reaches || reaches.length === 0) return "";
  return [
    "## Code reach for the reviewer",
    "",
    `These code files reach for more than ${against} did; read these lines before merging. The sandbox contained them during the run, but not after a merge.`,
    "",
    "| File | Reaches for | Words |",
    "|---|---|---|",
    ...reaches.map(
      (flag) =>
        `| ${codeSpan(flag.file, 120)} | ${kindWords[flag.kind]} | ${flag.words.map((word) => codeSpan(word, 40)).join(", ")} |`,
    ),
  ].join("\n");
}
