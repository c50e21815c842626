import { matrixEvolveJobs } from "./matrix-workflow.js";

/**
 * The placeholder for the Ecdysis Action reference, the same in `ecdysis init`'s workflow and in
 * docs/workflows/: replace it with your fork or release, pinned to a full commit SHA.
 */
export const ACTION_PLACEHOLDER = "OWNER/ecdysis@<full-commit-sha>";

/** `owner/repo@ref` (optionally `owner/repo/path@ref`), as a workflow `uses:` accepts it. */
export const ACTION_REF_PATTERN =
  /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\/[A-Za-z0-9_./-]+)?@[A-Za-z0-9_./-]+$/;

/** What a workflow is written for: one harness, and the Action it uses. */
export interface WorkflowOptions {
  /** The `uses:` reference (default: the placeholder, marked `EDIT ME`). */
  action?: string;
  /** The harness folder, relative to the repository root (default `harness`). */
  harnessDir?: string;
  /**
   * The harness's name when the repository has another harness already ("" for the first):
   * it names the workflow and keeps its evolve runs in their own concurrency group.
   */
  name?: string;
  /**
   * Runners the evolve spreads over (default 1: one job). From 2 on, the evolve is a search job,
   * a matrix of that many measure jobs and a finish job (`matrixEvolveJobs`).
   */
  runners?: number;
  /** The config's rollout cache folder, relative to the repository root (for `runners`). */
  cacheDir?: string;
}

/**
 * The example GitHub workflow `ecdysis init` writes (evolve weekly and on demand; gate PRs that
 * touch the harness). `configPath` and the harness folder are relative to the repository root,
 * where GitHub reads workflows. Each harness of a repository gets its own workflow; the Action
 * gives each its own status context, comment, branch and PR title.
 */
export function exampleWorkflow(configPath: string, options: WorkflowOptions = {}): string {
  const action = options.action ?? ACTION_PLACEHOLDER;
  const placeholder = action === ACTION_PLACEHOLDER;
  const uses = placeholder
    ? `${action} # EDIT ME: your fork or release of Ecdysis, pinned to a full commit SHA`
    : action;
  const editNote = placeholder
    ? `# EDIT ME before the first run: replace both '${ACTION_PLACEHOLDER}' below with the Ecdysis
# Action you use (your fork or a release), pinned to its full commit SHA, e.g.
# 'my-org/ecdysis@0123456789abcdef0123456789abcdef01234567'. ('ecdysis init --action REF' fills it in.)
`
    : "";
  const name = options.name ?? "";
  return `# Ecdysis: evolve the agent harness weekly (opens/updates one PR) and gate PRs that touch it.
${editNote}# Permissions are the minimum each job needs. For a real model, set the repository variables
# ECDYSIS_BASE_URL / ECDYSIS_MODEL and the secret ECDYSIS_API_KEY, and use 'provider: openai'
# in ${configPath}; the simulated model needs neither. See docs/action.md for repository settings
# (evolve needs "Allow GitHub Actions to create and approve pull requests").
name: ${name === "" ? "ecdysis" : `ecdysis (${name})`}

on:
  schedule:
    - cron: "17 4 * * 1"   # Mondays 04:17 UTC
  workflow_dispatch: {}
  pull_request:
    paths:
      - "${options.harnessDir ?? "harness"}/**"
      - "${configPath}"

permissions: {}

${workflowJobs({ configPath, uses, group: name === "" ? "ecdysis-evolve" : `ecdysis-evolve-${name.replace(/[^A-Za-z0-9_.-]+/g, "-")}`, runners: options.runners ?? 1, cacheDir: options.cacheDir ?? ".ecdysis/cache" })}`;
}

/** The evolve and gate jobs of the example workflow. */
function workflowJobs(options: {
  configPath: string;
  uses: string;
  group: string;
  runners: number;
  cacheDir: string;
}): string {
  const { configPath, uses } = options;
  const evolve =
    options.runners > 1 ? matrixEvolveJobs(options) : singleEvolveJob({ ...options, configPath });
  return `jobs:
${evolve}
${gateJob({ configPath, uses })}`;
}

/** The evolve job on one runner. */
function singleEvolveJob(options: { configPath: string; uses: string; group: string }): string {
  const { configPath, uses } = options;
  return `  evolve:
    if: github.event_name != 'pull_request'
    runs-on: ubuntu-latest
    timeout-minutes: 120
    concurrency:
      group: ${options.group}-\${{ github.repository }}
      cancel-in-progress: false
    permissions:
      contents: write        # push the ecdysis/<harness> branch
      pull-requests: write   # open / update / close its PR
      statuses: write        # post the held-out gate status on the PR head
    steps:
      - uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
        with:
          persist-credentials: false   # the Action authenticates its own push
          fetch-depth: 0
      - uses: ${uses}
        with:
          mode: evolve
          config: ${configPath}
          base-url: \${{ vars.ECDYSIS_BASE_URL }}
          model: \${{ vars.ECDYSIS_MODEL }}
          api-key: \${{ secrets.ECDYSIS_API_KEY }}
`;
}

/** The gate job: held-out accuracy of a PR's harness against its base. */
function gateJob(options: { configPath: string; uses: string }): string {
  const { configPath, uses } = options;
  return `  gate:
    # pull_request (never pull_request_target): PRs from forks get no secrets, so skip them.
    if: github.event_name == 'pull_request' && github.event.pull_request.head.repo.full_name == github.repository
    runs-on: ubuntu-latest
    timeout-minutes: 60
    permissions:
      contents: read
      pull-requests: write   # the sticky comment
      statuses: write        # the ecdysis/heldout status
    steps:
      - uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
        with:
          persist-credentials: false
          fetch-depth: 0       # the base commit must be present
      - uses: ${uses}
        with:
          mode: gate
          config: ${configPath}
          base-url: \${{ vars.ECDYSIS_BASE_URL }}
          model: \${{ vars.ECDYSIS_MODEL }}
          api-key: \${{ secrets.ECDYSIS_API_KEY }}
`;
}

/** The `ecdysis.yml` `ecdysis init` writes for a sim world. */
export function initialConfig(world: string): string {
  return `# Ecdysis project (schema: 'ecdysis schema --out schemas' writes ecdysis.schema.json for editors).
# Paths are relative to this file.
model:
  provider: sim          # the embedded simulated model; use 'openai' + baseUrl for a real endpoint
  model: sim-1
  world: ${world}
harness:
  kind: builtin
  dir: harness
  editable: [harness.yaml, system.md, rules.md]
tasks:
  train: tasks/train.jsonl
  heldout: tasks/heldout.jsonl
concurrency: 8
cacheDir: .ecdysis/cache
`;
}
