/** The example GitHub workflow `ecdysis init` writes (evolve weekly and on demand; gate PRs). */
export function exampleWorkflow(configPath: string): string {
  return `# Ecdysis: evolve the agent harness weekly (opens/updates one PR) and gate PRs that touch it.
# Permissions are the minimum each job needs. For a real model, set the repository variables
# ECDYSIS_BASE_URL / ECDYSIS_MODEL and the secret ECDYSIS_API_KEY, and use 'provider: openai'
# in ${configPath}; the simulated model needs neither.
name: ecdysis

on:
  schedule:
    - cron: "17 4 * * 1"
  workflow_dispatch: {}
  pull_request:
    paths:
      - "harness/**"

jobs:
  evolve:
    if: github.event_name != 'pull_request'
    runs-on: ubuntu-latest
    permissions:
      contents: write
      pull-requests: write
      statuses: write
    steps:
      - uses: actions/checkout@v4
      - uses: ecdysis/ecdysis@v1
        with:
          mode: evolve
          config: ${configPath}
          base-url: \${{ vars.ECDYSIS_BASE_URL }}
          model: \${{ vars.ECDYSIS_MODEL }}
          api-key: \${{ secrets.ECDYSIS_API_KEY }}
          github-token: \${{ secrets.GITHUB_TOKEN }}

  gate:
    if: github.event_name == 'pull_request'
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-requests: write
      statuses: write
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: ecdysis/ecdysis@v1
        with:
          mode: gate
          config: ${configPath}
          base-url: \${{ vars.ECDYSIS_BASE_URL }}
          model: \${{ vars.ECDYSIS_MODEL }}
          api-key: \${{ secrets.ECDYSIS_API_KEY }}
          github-token: \${{ secrets.GITHUB_TOKEN }}
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
