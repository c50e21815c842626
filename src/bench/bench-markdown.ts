import { ceilingDefinition, ceilingTable } from "./ceiling-markdown.js";
import { type ClaimCheck, checkClaims, claimLabel } from "./claims.js";
import {
  baselineLine,
  budgetUseTable,
  decompositionTable,
  formatters,
  headlineTable,
  pairTable,
  speedDefinitions,
} from "./comparison-markdown.js";
import { byConstruction, claimByConstruction } from "./construction.js";
import { noEditTable, threeUnitDefinition, threeUnitTable } from "./spend-markdown.js";
import type { ArmSummary, BenchResult, BenchRun, Spread } from "./types.js";

/** Formats a spread as `median (min–max)` with the given value formatter. */
function formatSpread(value: Spread | null | undefined, format: (n: number) => string): string {
  if (!value) return "–";
  return value.min === value.max
    ? format(value.median)
    : `${format(value.median)} (${format(value.min)}–${format(value.max)})`;
}

/** The per-arm summary as a Markdown table (one row per arm × budget × refiner variant). */
function armsTable(arms: readonly ArmSummary[]): string {
  const f = formatters;
  const rows = arms.map((arm) => {
    const s = arm.figures;
    return [
      arm.strategy + (arm.refiner === "neutral" ? " (neutral refiner)" : ""),
      String(arm.budgetEvals),
      formatSpread(s.wallMs, f.seconds),
      formatSpread(s.rollouts, f.count),
      formatSpread(s.unspentRollouts, f.count),
      formatSpread(s.llmCalls, f.count),
      formatSpread(s.refinementShare, f.share),
      formatSpread(s.trainAccuracy, f.accuracy),
      formatSpread(s.heldoutAccuracy, f.accuracy),
      formatSpread(s.seedHeldoutAccuracy, f.accuracy),
      formatSpread(s.acceptedEdits, f.count),
      formatSpread(s.accommodations, f.count),
      formatSpread(s.ineffectiveEdits, f.count),
      formatSpread(s.patternPurity, f.accuracy),
    ].join(" | ");
  });
  return [
    "| arm | budget | training time | rollouts | unspent | LLM calls | refinement share | train acc. | held-out acc. | seed held-out acc. | accepted edits | accommodations | ineffective edits | pattern purity |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

const verdictText = { yes: "yes", inconclusive: "*inconclusive*", no: "**no**" } as const;

/** The claim checks as a Markdown table; a claim the sim guarantees is marked. */
export function claimsTable(checks: readonly ClaimCheck[], result: BenchResult): string {
  return [
    "| budget | scope | claim | measured (median [95% interval]) | holds |",
    "|---|---|---|---|---|",
    ...checks.map((check) => {
      const worlds = result.worlds.filter(
        (world) => check.scope === "all worlds" || world.name === check.scope,
      );
      const mark = claimByConstruction(check.claim, worlds) ? " (by construction)" : "";
      return `| ${check.budgetEvals} | ${check.scope} | ${claimLabel(check.claim)}${mark} | ${check.measured} | ${verdictText[check.verdict]} |`;
    }),
  ].join("\n");
}

/** The "where it does not hold" section: every claim that is not a clear yes, with its reason. */
export function whereItDoesNotHold(checks: readonly ClaimCheck[]): string {
  const failing = checks.filter((check) => check.verdict !== "yes");
  if (failing.length === 0)
    return "Every checked claim holds in this run, at every budget, on every world.";
  return failing
    .map((check) =>
      `- **${check.scope}**, budget ${check.budgetEvals} — ${claimLabel(check.claim)}: ${check.verdict}, measured ${check.measured}. ${check.explanation ?? ""}`.trimEnd(),
    )
    .join("\n");
}

/** The "what holds by construction" section. */
function constructionSection(): string {
  return byConstruction.map((entry) => `- **${entry.figure}.** ${entry.text}`).join("\n");
}

function runsTable(runs: readonly BenchRun[]): string {
  const f = formatters;
  return [
    "| world | refiner | budget | seed | arm | stopped by | training time | rollouts (unspent) | LLM calls | train acc. | held-out acc. (seed → final) | probe best | edits | accommodations | ineffective | purity |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...runs.map((run) => {
      const best = run.probe
        ? f.accuracy(Math.max(...run.probe.points.map((point) => point.accuracy)))
        : "–";
      return (
        `| ${run.world} | ${run.refiner} | ${run.budgetEvals} | ${run.seed} | ${run.strategy} | ${run.stoppedBy} | ${f.seconds(run.wallMs)} | ${run.rollouts} (${run.unspentRollouts}) | ${run.llmCalls} | ` +
        `${f.accuracy(run.trainAccuracy)} | ${f.accuracy(run.seedHeldoutAccuracy)} → ${f.accuracy(run.heldoutAccuracy)} | ${best} | ` +
        `${run.acceptedEdits} | ${run.accommodations} | ${run.ineffectiveEdits} | ${run.patternPurity === null ? "–" : f.accuracy(run.patternPurity)} |`
      );
    }),
  ].join("\n");
}

function assumptions(result: BenchResult): string {
  return result.worlds
    .map((world) =>
      [
        `### ${world.name}${world.neutralRefiner ? " (neutral refiner)" : ""}`,
        "",
        ...(world.description ? [world.description, ""] : []),
        `- source: \`${world.source}\``,
        `- parameters: \`${JSON.stringify(world.parameters)}\``,
        `- refiner assumptions: \`${JSON.stringify(world.refinerAssumptions)}\``,
      ].join("\n"),
    )
    .join("\n\n");
}

/** The settings line of bench.md and the README section. */
export function settingsLine(result: BenchResult): string {
  const s = result.settings;
  return (
    `Arms ${s.strategies.join(", ")}${s.decomposition ? " (+ decomposition)" : ""} · seeds ${s.seeds.join(", ")} · budgets ${s.budgets.join(" and ")} full-split evaluations per run · ` +
    `probe ≤ ${s.probeSize} held-out tasks · agent temperature ${s.temperature} · sim latency scale ${s.latencyScale ?? "as each world sets it"} · concurrency ${s.concurrency} · ` +
    `iteration cap ${s.maxIterations} (a safety net) · bootstrap ${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed} · whole bench ${(result.benchWallMs / 60_000).toFixed(1)} min`
  );
}

/** How the runs were made: the code, the processes side by side, the runs reused. */
function executionLine(result: BenchResult): string {
  if (!result.execution) return "Runs executed one after another in one process.";
  const { code, processes, reusedRuns } = result.execution;
  const commit = code.commit
    ? ` at commit ${code.commit.slice(0, 12)}${code.dirty ? ` with uncommitted changes${code.changes ? ` (${code.changes.slice(0, 12)})` : ""}` : ""}`
    : "";
  const side =
    processes === 1
      ? "Runs executed one after another in one process."
      : `Runs executed in ${processes} bench processes side by side (seeds split between them), each running its runs one after another: on ${result.machine.cores} cores the processes share the CPU, so wall times include some contention.`;
  // With several processes every run is recorded by its process and assembled by one last pass:
  // the side-by-side sentence says so, and records of an earlier attempt look the same.
  const reused =
    processes === 1 && reusedRuns > 0
      ? ` ${reusedRuns} of ${result.runs.length} runs were taken from the records of an earlier bench in the same folder (\`--resume\`), made by the same code under the same settings.`
      : "";
  return `Ecdysis ${code.version}${commit}. ${side}${reused}`;
}

/** `DIR/bench.md`: headline, budget use, claims, decomposition, what holds by construction, runs. */
export function renderBenchMarkdown(result: BenchResult): string {
  const checks = checkClaims(result);
  const sections = [
    ...introSections(result),
    ...claimSections(result, checks),
    ...detailSections(result),
  ];
  return `${sections.join("\n\n")}\n`;
}

/** The title, the machine and settings lines, the headline tables and the budget use. */
function introSections(result: BenchResult): string[] {
  const headline = result.settings.budgets
    .map(
      (budget) =>
        `### Budget ${budget} full-split evaluations\n\n${headlineTable(result, budget)}\n\nHeld-out time-to-match in three units:\n\n${threeUnitTable(result, budget)}`,
    )
    .join("\n\n");
  return [
    "# Ecdysis bench",
    `${result.date} · ${result.machine.cpu} (${result.machine.cores} cores, ${result.machine.memoryGb} GB) · Node ${result.machine.node} · ${result.machine.platform}`,
    `${settingsLine(result)}. ${executionLine(result)} *Training time*, rollouts, calls and tokens cover the arm's search (what the budget bounds).`,
    "## Headline: Ecdysis against the GEPA-faithful baseline",
    baselineLine.replace("docs/bench/gepa-baseline.md)", "gepa-baseline.md)"),
    speedDefinitions,
    threeUnitDefinition,
    headline,
    "## How the arms used their budgets",
    budgetUseTable(result),
    "Runs that ended with no accepted edit, and whether ground truth says a systematic deficiency was left on the held-out split (a held-out task a systematic fix would turn, none of them touched):",
    noEditTable(result.runs),
  ];
}

/** The claims, where they do not hold, the decomposition (when run) and what holds by construction. */
function claimSections(result: BenchResult, checks: readonly ClaimCheck[]): string[] {
  const largest = result.settings.budgets.at(-1) as number;
  const decomposition = result.settings.decomposition
    ? [`## Decomposition (budget ${largest})`, decompositionTable(result, largest)]
    : [];
  return [
    "## Claims",
    claimsTable(checks, result),
    "## Where it does not hold",
    whereItDoesNotHold(checks),
    ...decomposition,
    "## What holds by construction",
    constructionSection(),
  ];
}

/** Per arm, per pair, the worlds' assumptions and every run. */
function detailSections(result: BenchResult): string[] {
  const pairs = result.settings.budgets
    .map((budget) => `### Budget ${budget}\n\n${pairTable(result, budget)}`)
    .join("\n\n");
  return [
    "## Per arm (median, min–max over worlds and seeds)",
    armsTable(result.arms),
    "## Against the ceiling (per world)",
    ceilingDefinition,
    ceilingTable(result.runs),
    "## Held-out time-to-match per pair",
    pairs,
    "## Worlds and the sim's assumptions",
    assumptions(result),
    "## All runs",
    runsTable(result.runs),
  ];
}
