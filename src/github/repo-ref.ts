import type { GitHubClient } from "./github-client.js";

/** Where the PR lives. */
export interface RepoRef {
  client: GitHubClient;
  owner: string;
  repo: string;
}

/** GitHub refuses PR bodies over 65,536 characters. */
export const maxBodyChars = 65_536;

/**
 * Cut a body to GitHub's limit at a line boundary — a table is cut between two rows, never
 * inside one — saying how much was left out and where the rest is, and keeping `footer` (e.g.
 * the run link a long comment would otherwise lose with its end) below the cut.
 */
export function fitBody(body: string, options: { note?: string; footer?: string } = {}): string {
  if (body.length <= maxBodyChars) return body;
  const note = options.note ?? "the full report is in the workflow artifact";
  const footer = (options.footer ?? "").slice(0, 2_000);
  // Room for the notice: its line count has at most 7 digits.
  const reserve = 120 + note.length + footer.length;
  const head = body.slice(0, maxBodyChars - reserve);
  const cut = head.lastIndexOf("\n") > 0 ? head.lastIndexOf("\n") : head.length;
  const hidden = body.slice(cut).split("\n").length - 1 || 1;
  const tail = `\n\n… (${hidden} more line${hidden === 1 ? "" : "s"} not shown: ${note})\n${footer ? `\n${footer}\n` : ""}`;
  return body.slice(0, cut) + tail;
}
