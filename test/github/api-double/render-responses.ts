import type { CommentState, PullState, RepoState, StatusState } from "./github-state.js";
import type { OpenApiValidator } from "./openapi-validator.js";

type Json = Record<string, unknown>;

const web = "https://github.com";

function apiBase(state: RepoState): string {
  return `https://api.github.com/repos/${state.owner}/${state.repo}`;
}

function patchRepository(repository: Json, state: RepoState): void {
  repository.name = state.repo;
  repository.full_name = `${state.owner}/${state.repo}`;
  repository.html_url = `${web}/${state.owner}/${state.repo}`;
  repository.url = apiBase(state);
  if (repository.owner && typeof repository.owner === "object")
    (repository.owner as Json).login = state.owner;
  if ("default_branch" in repository) repository.default_branch = state.defaultBranch;
}

/** `full-repository` example patched with the double's repository. */
export function renderRepository(validator: OpenApiValidator, state: RepoState): Json {
  const repository = validator.example<Json>("full-repository-default-response");
  patchRepository(repository, state);
  // The published example omits this required field; GitHub sends it (null for no language).
  repository.language ??= "TypeScript";
  // The example is a fork; the double's repository is not.
  repository.fork = false;
  delete repository.parent;
  delete repository.source;
  delete repository.template_repository;
  return repository;
}

function patchPull(
  pull: Json,
  state: RepoState,
  value: PullState,
  headSha: string | undefined,
): void {
  const base = apiBase(state);
  const urls = {
    url: `${base}/pulls/${value.number}`,
    html_url: `${web}/${state.owner}/${state.repo}/pull/${value.number}`,
    issue_url: `${base}/issues/${value.number}`,
    comments_url: `${base}/issues/${value.number}/comments`,
    diff_url: `${web}/${state.owner}/${state.repo}/pull/${value.number}.diff`,
    patch_url: `${web}/${state.owner}/${state.repo}/pull/${value.number}.patch`,
  };
  Object.assign(pull, urls, {
    id: 1_000_000 + value.number,
    node_id: `PR_double${value.number}`,
    number: value.number,
    state: value.state,
    title: value.title,
    body: value.body,
    draft: value.draft,
    locked: false,
    created_at: value.createdAt,
    updated_at: value.updatedAt,
    closed_at: value.state === "closed" ? value.updatedAt : null,
    merged_at: value.merged ? value.updatedAt : null,
    merge_commit_sha: null,
    labels: value.labels.map((name, index) => ({
      id: 2000 + index,
      node_id: `LA_double${index}`,
      url: `${base}/labels/${encodeURIComponent(name)}`,
      name,
      description: "",
      color: "ededed",
      default: false,
    })),
    requested_reviewers: [],
    requested_teams: [],
    assignee: null,
    assignees: [],
    milestone: null,
  });
  const head = pull.head as Json;
  Object.assign(head, {
    ref: value.head,
    label: `${state.owner}:${value.head}`,
    sha: headSha ?? "0".repeat(40),
  });
  const baseRef = pull.base as Json;
  Object.assign(baseRef, { ref: value.base, label: `${state.owner}:${value.base}` });
  for (const side of [head, baseRef])
    if (side.repo && typeof side.repo === "object") patchRepository(side.repo as Json, state);
}

/** `pull-request` example (pulls.get/create/update) patched with the PR's state. */
export function renderPull(
  validator: OpenApiValidator,
  state: RepoState,
  value: PullState,
  headSha: string | undefined,
): Json {
  const pull = validator.example<Json>("pull-request");
  patchPull(pull, state, value, headSha);
  Object.assign(pull, {
    merged: value.merged === true,
    mergeable: null,
    merged_by: null,
    comments: state.comments.filter((c) => c.issueNumber === value.number).length,
  });
  return pull;
}

/** `pull-request-simple` example (pulls.list, review requests) patched with the PR's state. */
export function renderPullSimple(
  validator: OpenApiValidator,
  state: RepoState,
  value: PullState,
  headSha: string | undefined,
): Json {
  const pull = validator.example<Json[]>("pull-request-simple-items")[0];
  patchPull(pull, state, value, headSha);
  return pull;
}

/** `issue-comment` example patched with the comment. */
export function renderComment(
  validator: OpenApiValidator,
  state: RepoState,
  value: CommentState,
): Json {
  const comment = validator.example<Json>("issue-comment");
  Object.assign(comment, {
    id: value.id,
    node_id: `IC_double${value.id}`,
    url: `${apiBase(state)}/issues/comments/${value.id}`,
    html_url: `${web}/${state.owner}/${state.repo}/pull/${value.issueNumber}#issuecomment-${value.id}`,
    issue_url: `${apiBase(state)}/issues/${value.issueNumber}`,
    body: value.body,
    user: {
      ...(comment.user as Json),
      login: value.author?.login ?? "github-actions[bot]",
      type: value.author?.type ?? "Bot",
    },
    created_at: value.createdAt,
    updated_at: value.updatedAt,
  });
  return comment;
}

/** `label-items` shape for the PR's labels. */
export function renderLabels(
  validator: OpenApiValidator,
  state: RepoState,
  names: string[],
): Json[] {
  const template = validator.example<Json[]>("label-items")[0];
  return names.map((name, index) => ({
    ...template,
    id: 2000 + index,
    node_id: `LA_double${index}`,
    url: `${apiBase(state)}/labels/${encodeURIComponent(name)}`,
    name,
    default: false,
  }));
}

/** `combined-commit-status` example for `sha`, with its latest status per context. */
export function renderCombinedStatus(
  validator: OpenApiValidator,
  state: RepoState,
  combined: { state: string; latest: StatusState[] },
  sha: string,
): Json {
  const body = validator.example<Json>("combined-commit-status");
  patchRepository(body.repository as Json, state);
  Object.assign(body, {
    state: combined.state,
    sha,
    total_count: combined.latest.length,
    commit_url: `${apiBase(state)}/commits/${sha}`,
    url: `${apiBase(state)}/commits/${sha}/status`,
    statuses: combined.latest.map((status) => ({
      ...(body.statuses as Json[])[0],
      ...renderStatus(validator, state, status),
    })),
  });
  return body;
}

/** `status` example patched with the status. */
export function renderStatus(
  validator: OpenApiValidator,
  state: RepoState,
  value: StatusState,
): Json {
  const status = validator.example<Json>("status");
  Object.assign(status, {
    id: value.id,
    node_id: `SC_double${value.id}`,
    url: `${apiBase(state)}/statuses/${value.sha}`,
    state: value.state,
    description: value.description,
    target_url: value.targetUrl,
    context: value.context,
  });
  return status;
}
