import { readFileSync } from "node:fs";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";

const repositorySchema = z.object({ full_name: z.string() }).passthrough();

const pullRequestEventSchema = z
  .object({
    pull_request: z
      .object({
        number: z.number().int(),
        // null when the fork the PR came from was deleted.
        head: z
          .object({
            sha: z.string(),
            ref: z.string(),
            repo: repositorySchema.nullable().optional(),
          })
          .passthrough(),
        base: z
          .object({ sha: z.string(), ref: z.string(), repo: repositorySchema.optional() })
          .passthrough(),
      })
      .passthrough()
      .optional(),
    repository: z.object({ default_branch: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

/** The slice of the workflow run context the Action uses, read from the runner's env. */
export interface RunContext {
  owner: string;
  repo: string;
  eventName: string;
  sha: string;
  workspace: string;
  apiUrl: string;
  serverUrl: string;
  /** Link to this workflow run (status target_url). */
  runUrl: string;
  runId: string;
  /** `GITHUB_REF` (e.g. `refs/heads/main`), when the runner set it. */
  ref?: string;
  /** `GITHUB_RUN_ATTEMPT` ("1" on the first attempt). */
  runAttempt: string;
  pullRequest?: {
    number: number;
    headSha: string;
    headRef: string;
    baseSha: string;
    baseRef: string;
    /** `owner/repo` the head branch lives in; null when that fork was deleted. */
    headRepository?: string | null;
    /** The head branch lives in another repository (a fork), or in one that no longer exists. */
    fromFork: boolean;
  };
  defaultBranch?: string;
}

/** Read the run context from `GITHUB_*` variables and the event payload file. */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const repository = env.GITHUB_REPOSITORY ?? "";
  const [owner, repo] = repository.split("/");
  if (!owner || !repo) {
    throw new InputError("environment", "GITHUB_REPOSITORY must be 'owner/repo'", {
      field: "GITHUB_REPOSITORY",
    });
  }
  const serverUrl = (env.GITHUB_SERVER_URL ?? "https://github.com").replace(/\/$/, "");
  const runId = env.GITHUB_RUN_ID ?? "local";
  const context: RunContext = {
    owner,
    repo,
    eventName: env.GITHUB_EVENT_NAME ?? "workflow_dispatch",
    sha: env.GITHUB_SHA ?? "",
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    apiUrl: (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/$/, ""),
    serverUrl,
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    runId,
    ref: env.GITHUB_REF || undefined,
    runAttempt: env.GITHUB_RUN_ATTEMPT || "1",
  };
  const eventPath = env.GITHUB_EVENT_PATH;
  if (!eventPath) return context;
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(eventPath, "utf8"));
  } catch (error) {
    throw new InputError(eventPath, `cannot read the event payload: ${(error as Error).message}`);
  }
  const event = pullRequestEventSchema.safeParse(payload);
  if (!event.success) return context;
  const pr = event.data.pull_request;
  if (pr) {
    const baseRepository = pr.base.repo?.full_name ?? repository;
    const headRepository = pr.head.repo === null ? null : pr.head.repo?.full_name;
    context.pullRequest = {
      number: pr.number,
      headSha: pr.head.sha,
      headRef: pr.head.ref,
      baseSha: pr.base.sha,
      baseRef: pr.base.ref,
      headRepository,
      // GitHub always sends head.repo; a payload without it (a hand-written event) is taken as
      // a same-repository PR, as the workflow that wrote it is trusted.
      fromFork:
        headRepository === null ||
        (headRepository !== undefined &&
          headRepository.toLowerCase() !== baseRepository.toLowerCase()),
    };
  }
  context.defaultBranch = event.data.repository?.default_branch;
  return context;
}
