import { createHash } from "node:crypto";
import type { Git } from "./git.js";

/** The hidden marker a bot PR's body carries its change's fingerprint in. */
const changeMarkerName = "ecdysis-change";

/**
 * The fingerprint of a run's change — the seed→evolved diff of the harness folder — as "the same
 * change" is meant when a human closed a PR: the same lines added and removed in the same files.
 * Context lines, line numbers and (for text) blob ids are left out, like `git patch-id`, so the
 * same edit found again on a base that moved elsewhere has the same fingerprint.
 */
export async function changeFingerprint(options: {
  git: Git;
  seed: string;
  evolved: string;
  harnessPath: string;
}): Promise<string> {
  const diff = await options.git.run([
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--no-renames",
    "--unified=0",
    "--full-index",
    options.seed,
    options.evolved,
    "--",
    options.harnessPath,
  ]);
  const lines: string[] = [];
  let index = "";
  for (const line of diff.split("\n")) {
    if (line.startsWith("index ")) index = line;
    // A binary file has no lines to compare: its blob ids stand for its content.
    else if (line.startsWith("Binary files ")) lines.push(index, line);
    else if (/^[-+]/.test(line)) lines.push(line);
  }
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 24);
}

/** The marker line for a PR body. */
export function changeMarker(fingerprint: string): string {
  return `<!-- ${changeMarkerName}: ${fingerprint} -->`;
}

/** The fingerprint a PR body carries, if any. */
export function fingerprintIn(body: string): string | undefined {
  return new RegExp(`<!-- ${changeMarkerName}: ([0-9a-f]{8,64}) -->`).exec(body)?.[1];
}
