import type { GitHubClient } from "./github-client.js";

/** Where the PR lives. */
export interface RepoRef {
  client: GitHubClient;
  owner: string;
  repo: string;
}

/** GitHub refuses PR bodies over 65,536 characters. */
export const maxBodyChars = 65_536;

/** Cut a body to GitHub's limit, keeping its head and saying where the rest is. */
export function fitBody(
  body: string,
  note = "the full report is in the workflow artifact",
): string {
  if (body.length <= maxBodyChars) return body;
  const tail = `\n\n… (truncated: ${note})\n`;
  return body.slice(0, maxBodyChars - tail.length) + tail;
}
