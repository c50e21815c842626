/**
 * `npm run bench`: the standard suite — every bundled world × seeds 1–10 × the three arms at
 * two budgets (full-split evaluations), plus the decomposition (Ecdysis without pipelining; a
 * neutral refiner) at the larger one — then rewrites the performance section of docs/performance.md (between
 * `<!-- bench:start -->` and `<!-- bench:end -->`) with the figures, date and machine.
 *
 * Options: --out DIR (default .ecdysis/bench), --seeds 1,...,10, --world a,b, --budgets 5,15,
 * --no-decomposition, --no-readme, --resume (reuse the runs a crashed bench finished in DIR),
 * --jobs N (N bench processes side by side, the seeds dealt out between them, then one pass that
 * assembles their recorded runs; implies --resume). Figures are printed, never asserted:
 * benchmarks do not gate CI.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  defaultBudgets,
  defaultSeeds,
  type Estimate,
  findComparison,
  renderReadmeSection,
  replaceReadmeSection,
  runBench,
} from "../src/bench/index.js";
import { runShares, seedShares } from "../src/cli/side-by-side.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    out: { type: "string", default: path.join(root, ".ecdysis", "bench") },
    seeds: { type: "string", default: defaultSeeds },
    world: { type: "string" },
    budgets: { type: "string", default: defaultBudgets },
    "no-decomposition": { type: "boolean", default: false },
    "no-readme": { type: "boolean", default: false },
    resume: { type: "boolean", default: false },
    jobs: { type: "string", default: "1" },
    /** Set on the processes --jobs starts: run the runs, record them, write nothing else. */
    child: { type: "boolean", default: false },
  },
});
const startedAtMs = Date.now();
const jobs = Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1) {
  process.stderr.write(`bench: --jobs must be a positive integer, got '${values.jobs}'\n`);
  process.exit(2);
}
if (jobs > 1) await runSideBySide(jobs);

const result = await runBench({
  worlds: values.world,
  seeds: values.seeds,
  strategies: "ecdysis,iterative,sampling",
  budgets: values.budgets,
  decomposition: !values["no-decomposition"],
  outDir: values.out,
  resume: values.resume || jobs > 1,
  processes: jobs,
  startedAtMs,
  onRun: (run, index, total, reused) => {
    if (reused) return;
    process.stdout.write(
      `[${index + 1}/${total}] ${run.world}${run.refiner === "neutral" ? " (neutral refiner)" : ""} seed ${run.seed} budget ${run.budgetEvals} ${run.strategy}: ` +
        `training ${(run.wallMs / 1000).toFixed(1)} s, ${run.rollouts} rollouts, ` +
        `held-out ${(run.seedHeldoutAccuracy * 100).toFixed(1)}% → ${(run.heldoutAccuracy * 100).toFixed(1)}%, ` +
        `${run.acceptedEdits} edits (${run.accommodations} accommodations), stopped by ${run.stoppedBy}\n`,
    );
  },
});

if (values.child) process.exit(0);

// Keep the full figures the README quotes in the repository (outside the linted source folders).
const results = path.join(root, "docs", "bench");
await mkdir(results, { recursive: true });
await copyFile(path.join(values.out, "bench.json"), path.join(results, "standard.json"));
await copyFile(path.join(values.out, "bench.md"), path.join(results, "standard.md"));

if (!values["no-readme"]) {
  const readmePath = path.join(root, "docs", "performance.md");
  const readme = await readFile(readmePath, "utf8");
  await writeFile(
    readmePath,
    replaceReadmeSection(readme, renderReadmeSection(result, { fullResults: "bench/standard.md" })),
  );
}

const show = (value: Estimate | null | undefined, scale = 1, unit = "") =>
  value
    ? `${(value.median * scale).toFixed(2)}${unit} [${(value.low * scale).toFixed(2)}, ${(value.high * scale).toFixed(2)}]`
    : "n/a";
for (const budgetEvals of result.settings.budgets) {
  const x = findComparison(result.comparisons, {
    left: "ecdysis",
    right: "iterative",
    budgetEvals,
  })?.figures;
  const sampling = findComparison(result.comparisons, {
    left: "ecdysis",
    right: "sampling",
    budgetEvals,
  })?.figures;
  process.stdout.write(
    `\nbudget ${budgetEvals}: held-out time-to-match iterative/Ecdysis ${show(x?.timeToMatch, 1, "×")} ` +
      `(in training rollouts ${show(x?.timeToMatchRollouts, 1, "×")}, in LLM calls ${show(x?.timeToMatchLlmCalls, 1, "×")}), ` +
      `mean held-out accuracy over time Ecdysis − iterative ${show(x?.aucDiff, 100, " pp")}, ` +
      `training time iterative/Ecdysis ${show(x?.wallRatio, 1, "×")}, rollouts ${show(x?.rolloutsRatio, 1, "×")}, ` +
      `final held-out Ecdysis − iterative ${show(x?.heldoutDiff, 100, " pp")}, Ecdysis − sampling ${show(sampling?.heldoutDiff, 100, " pp")}\n`,
  );
}
process.stdout.write(
  `whole bench ${(result.benchWallMs / 60_000).toFixed(1)} min; full results: ${path.join(values.out, "bench.md")}\n`,
);

/**
 * Starts `jobs` copies of this script on the same folder, each with every jobs-th seed, and
 * waits for all of them; the caller then assembles their recorded runs. A failed copy stops the
 * bench (its finished runs stay recorded: run the same command again to go on).
 */
async function runSideBySide(count: number): Promise<void> {
  const seeds = values.seeds
    .split(",")
    .map((seed) => Number(seed.trim()))
    .filter((seed) => Number.isInteger(seed));
  const forwarded = [
    "--out",
    values.out,
    "--budgets",
    values.budgets,
    ...(values.world ? ["--world", values.world] : []),
    ...(values["no-decomposition"] ? ["--no-decomposition"] : []),
    "--resume",
    "--child",
  ];
  const codes = await runShares({
    command: [process.execPath, ...process.execArgv, import.meta.filename],
    shares: seedShares(seeds, count),
    argsFor: (share) => [...forwarded, "--seeds", share.join(",")],
    onLine: (line) => process.stdout.write(`${line}\n`),
  });
  if (codes.some((code) => code !== 0)) {
    process.stderr.write(
      "bench: a bench process failed; its finished runs are recorded — run the same command again to go on\n",
    );
    process.exit(1);
  }
}
