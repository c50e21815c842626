/** What the jobs of a split evolve are written for. */
export interface MatrixJobsOptions {
  /** The config, relative to the repository root. */
  configPath: string;
  /** The config's rollout cache folder, relative to the repository root. */
  cacheDir: string;
  /** The `uses:` line of the Ecdysis Action (with its EDIT ME comment when a placeholder). */
  uses: string;
  /** Measure jobs: the matrix holds shards 1..runners. */
  runners: number;
  /** Concurrency group of the run (one evolve of a harness at a time). */
  group: string;
}

const checkout = `      - uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
        with:
          persist-credentials: false   # the Action authenticates its own push
          fetch-depth: 0`;
const uploadAction = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2";
const downloadAction = "actions/download-artifact@v5 # EDIT ME: pin to its full commit SHA";
const endpoint = `          base-url: \${{ vars.ECDYSIS_BASE_URL }}
          model: \${{ vars.ECDYSIS_MODEL }}
          api-key: \${{ secrets.ECDYSIS_API_KEY }}`;

/**
 * The evolve of one harness as jobs of a GitHub Actions matrix (docs/scale-out.md): `search`
 * (the loop), `measure` (one job per shard of the seed and final measurement) and `finish` (on
 * the merged rollout caches: result, reports, the PR). The run folder and the rollout caches
 * move as artifacts; downloading every shard's cache into one folder (`merge-multiple`) is the
 * union the cache merges by. A job cut short still uploads what it finished (`always()`), and
 * the Action saves its cache on SIGINT/SIGTERM, so re-running the failed jobs resumes.
 */
export function matrixEvolveJobs(options: MatrixJobsOptions): string {
  const { cacheDir } = options;
  const action = ecdysisStep(options);
  return `  search:
    if: github.event_name != 'pull_request'
    runs-on: ubuntu-latest
    timeout-minutes: 350     # under GitHub's 6 h: the Action is signalled, saves its cache, exits 130
    concurrency:
      group: ${options.group}-\${{ github.repository }}
      cancel-in-progress: false
    permissions:
      contents: read
    steps:
${checkout}
${action("search")}
${upload("ecdysis-run", ".ecdysis/evolve-run")}
${upload("ecdysis-cache-search", cacheDir, true)}

${measureJob(options)}

  finish:
    needs: measure
    runs-on: ubuntu-latest
    timeout-minutes: 60
    permissions:
      contents: write        # push the ecdysis/<harness> branch
      pull-requests: write   # open / update / close its PR
      statuses: write        # post the held-out gate status on the PR head
    steps:
${checkout}
${download(["name: ecdysis-run"], ".ecdysis/evolve-run")}
${download(['pattern: "ecdysis-cache-*"', "merge-multiple: true   # the union of every job's rollouts"], cacheDir)}
${action("finish")}
`;
}

/** The matrix of measure jobs, one per shard. */
function measureJob(options: MatrixJobsOptions): string {
  const shards = Array.from({ length: options.runners }, (_, index) => index + 1).join(", ");
  return `  measure:
    needs: search
    runs-on: ubuntu-latest
    timeout-minutes: 350
    permissions:
      contents: read
    strategy:
      fail-fast: false
      matrix:
        shard: [${shards}]
    steps:
${checkout}
${download(["name: ecdysis-run"], ".ecdysis/evolve-run")}
${download(["name: ecdysis-cache-search"], options.cacheDir)}
${ecdysisStep(options)("measure", `\n          shard: \${{ matrix.shard }}/${options.runners}`)}
${upload(`"ecdysis-cache-shard-\${{ matrix.shard }}"`, options.cacheDir, true)}`;
}

/** The Ecdysis Action step of one phase. */
function ecdysisStep(options: MatrixJobsOptions) {
  return (phase: string, extra = "") => `      - uses: ${options.uses}
        with:
          mode: evolve
          config: ${options.configPath}
          phase: ${phase}${extra}
${endpoint}`;
}

/** An upload-artifact step; `always`: also when the job failed or was cut short. */
function upload(name: string, path: string, always = false): string {
  return `      - uses: ${uploadAction}
${always ? "        if: always()   # a job cut short hands on what it finished\n" : ""}        with:
          name: ${name}
          path: ${path}
          include-hidden-files: true
          overwrite: true`;
}

/** A download-artifact step into `path`. */
function download(what: string[], path: string): string {
  return `      - uses: ${downloadAction}
        with:
${[...what, `path: ${path}`].map((line) => `          ${line}`).join("\n")}`;
}
