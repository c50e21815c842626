/**
 * `npm run bench`: the standard suite — every bundled world × seeds 1, 2, 3 × the three
 * strategies, same budget and latency model — then rewrites the README's performance section
 * (between `<!-- bench:start -->` and `<!-- bench:end -->`) with the figures, date and machine.
 *
 * Options: --out DIR (default .ecdysis/bench), --seeds 1,2,3, --world a,b, --no-readme.
 * Figures are printed, never asserted: benchmarks do not gate CI.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { renderReadmeSection, replaceReadmeSection, runBench } from "../src/bench/index.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    out: { type: "string", default: path.join(root, ".ecdysis", "bench") },
    seeds: { type: "string", default: "1,2,3" },
    world: { type: "string" },
    "no-readme": { type: "boolean", default: false },
  },
});

const result = await runBench({
  worlds: values.world,
  seeds: values.seeds,
  strategies: "ecdysis,iterative,sampling",
  outDir: values.out,
  onRun: (run, index, total) => {
    process.stdout.write(
      `[${index + 1}/${total}] ${run.world} seed ${run.seed} ${run.strategy}: ` +
        `training ${(run.wallMs / 1000).toFixed(1)} s, ${run.rollouts} rollouts, ` +
        `held-out ${(run.seedHeldoutAccuracy * 100).toFixed(1)}% → ${(run.heldoutAccuracy * 100).toFixed(1)}%, ` +
        `${run.acceptedEdits} edits (${run.accommodations} accommodations)\n`,
    );
  },
});

// Keep the full figures the README quotes in the repository (outside the linted source folders).
const results = path.join(root, "docs", "bench");
await mkdir(results, { recursive: true });
await copyFile(path.join(values.out, "bench.json"), path.join(results, "standard.json"));
await copyFile(path.join(values.out, "bench.md"), path.join(results, "standard.md"));

if (!values["no-readme"]) {
  const readmePath = path.join(root, "README.md");
  const readme = await readFile(readmePath, "utf8");
  await writeFile(
    readmePath,
    replaceReadmeSection(
      readme,
      renderReadmeSection(result, { fullResults: "docs/bench/standard.md" }),
    ),
  );
}

const r = result.ratios;
const show = (value: number | null, scale = 1, unit = "") =>
  value === null ? "n/a" : `${(value * scale).toFixed(2)}${unit}`;
process.stdout.write(
  `\ntime-to-match iterative/Ecdysis ${show(r.timeToMatchIterativeOverEcdysis, 1, "×")} ` +
    `(${r.timeToMatchPairs} pairs, ${r.timeToMatchFailures} not matched, ${r.timeToMatchNoTarget} without target), ` +
    `total training wall time iterative/Ecdysis ${show(r.wallTimeIterativeOverEcdysis, 1, "×")}, ` +
    `rollouts ${show(r.rolloutsIterativeOverEcdysis, 1, "×")}, ` +
    `held-out Ecdysis − iterative ${show(r.heldoutDiffEcdysisMinusIterative, 100, " pp")}, ` +
    `Ecdysis − sampling ${show(r.heldoutDiffEcdysisMinusSampling, 100, " pp")}\n` +
    `full results: ${path.join(values.out, "bench.md")}\n`,
);
