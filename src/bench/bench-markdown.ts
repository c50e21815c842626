import { type ClaimCheck, checkClaims, claimLabel } from "./claims.js";
import { summarise } from "./summary.js";
import { timeToMatchSection } from "./time-to-match-markdown.js";
import type { BenchRatios, BenchResult, BenchRun, Spread, StrategySummary } from "./types.js";

/** Formats a spread as `median (min–max)` with the given value formatter. */
export function formatSpread(value: Spread | null, format: (n: number) => string): string {
  if (!value) return "–";
  return value.min === value.max
    ? format(value.median)
    : `${format(value.median)} (${format(value.min)}–${format(value.max)})`;
}

/** Formatters shared by the report and the README section. */
export const formatters = {
  seconds: (ms: number) => `${(ms / 1000).toFixed(1)} s`,
  count: (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1)),
  accuracy: (n: number) => `${(n * 100).toFixed(1)}%`,
  share: (n: number) => `${(n * 100).toFixed(0)}%`,
  ratio: (n: number | null) => (n === null ? "n/a" : `${n.toFixed(2)}×`),
  points: (n: number | null) =>
    n === null ? "n/a" : `${n >= 0 ? "+" : ""}${(n * 100).toFixed(1)} pp`,
  gain: (n: number | null) => (n === null ? "n/a" : `${n >= 0 ? "+" : ""}${(n * 100).toFixed(1)}%`),
};

/** The per-strategy summary as a Markdown table. */
export function summaryTable(summary: Record<string, StrategySummary>): string {
  const f = formatters;
  const rows = Object.entries(summary).map(([strategy, s]) =>
    [
      strategy,
      formatSpread(s.wallMs, f.seconds),
      formatSpread(s.totalWallMs, f.seconds),
      formatSpread(s.rollouts, f.count),
      formatSpread(s.llmCalls, f.count),
      formatSpread(s.promptTokens, f.count),
      formatSpread(s.completionTokens, f.count),
      formatSpread(s.refinementShare, f.share),
      formatSpread(s.trainAccuracy, f.accuracy),
      formatSpread(s.heldoutAccuracy, f.accuracy),
      formatSpread(s.seedHeldoutAccuracy, f.accuracy),
      formatSpread(s.acceptedEdits, f.count),
      formatSpread(s.accommodations, f.count),
      formatSpread(s.ineffectiveEdits, f.count),
      formatSpread(s.patternPurity, f.accuracy),
    ].join(" | "),
  );
  return [
    "| strategy | training wall time | whole run | rollouts | LLM calls | prompt tokens | completion tokens | refinement share | train acc. | held-out acc. | seed held-out acc. | accepted edits | accommodations | ineffective edits | pattern purity |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** The headline ratios as a Markdown table. */
export function ratiosTable(ratios: BenchRatios): string {
  const f = formatters;
  return [
    "| figure (median over world × seed) | value |",
    "|---|---|",
    `| time-to-match, iterative / Ecdysis (the speed claim) | ${f.ratio(ratios.timeToMatchIterativeOverEcdysis)} over ${ratios.timeToMatchPairs} pair(s), ${ratios.timeToMatchFailures} not matched (0×), ${ratios.timeToMatchNoTarget} without target |`,
    `| total training wall time, iterative / Ecdysis | ${f.ratio(ratios.wallTimeIterativeOverEcdysis)} |`,
    `| rollouts, iterative / Ecdysis | ${f.ratio(ratios.rolloutsIterativeOverEcdysis)} |`,
    `| held-out accuracy, Ecdysis − iterative | ${f.points(ratios.heldoutDiffEcdysisMinusIterative)} |`,
    `| held-out accuracy, relative gain over iterative | ${f.gain(ratios.heldoutRelativeGainOverIterative)} |`,
    `| held-out accuracy, Ecdysis − sampling | ${f.points(ratios.heldoutDiffEcdysisMinusSampling)} |`,
    `| world × seed pairs | ${ratios.pairs} |`,
  ].join("\n");
}

/** The claim checks as a Markdown table. */
export function claimsTable(checks: ClaimCheck[]): string {
  return [
    "| scope | claim | measured | holds |",
    "|---|---|---|---|",
    ...checks.map(
      (check) =>
        `| ${check.scope} | ${claimLabel(check.claim)} | ${check.measured} | ${check.holds ? "yes" : "**no**"} |`,
    ),
  ].join("\n");
}

/** A Mermaid bar chart of one figure's median per strategy. */
export function mermaidBars(options: {
  title: string;
  axis: string;
  labels: string[];
  values: number[];
}): string {
  const top = Math.max(...options.values, 0);
  return [
    "```mermaid",
    "xychart-beta",
    `  title "${options.title}"`,
    `  x-axis [${options.labels.map((label) => `"${label}"`).join(", ")}]`,
    `  y-axis "${options.axis}" 0 --> ${niceCeiling(top)}`,
    `  bar [${options.values.map((value) => Number(value.toFixed(3))).join(", ")}]`,
    "```",
  ].join("\n");
}

function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return Math.ceil((value * 1.1) / magnitude) * magnitude;
}

function charts(summary: Record<string, StrategySummary>): string {
  const strategies = Object.keys(summary);
  const medianOf = (figure: "wallMs" | "heldoutAccuracy", scale: number) =>
    strategies.map((strategy) => (summary[strategy][figure]?.median ?? 0) * scale);
  return [
    mermaidBars({
      title: "Training wall time (median)",
      axis: "seconds",
      labels: strategies,
      values: medianOf("wallMs", 1 / 1000),
    }),
    mermaidBars({
      title: "Held-out accuracy (median)",
      axis: "%",
      labels: strategies,
      values: medianOf("heldoutAccuracy", 100),
    }),
  ].join("\n\n");
}

function runsTable(runs: BenchRun[]): string {
  const f = formatters;
  return [
    "| world | seed | strategy | training wall time | rollouts | LLM calls | train acc. | held-out acc. (seed → final) | edits | accommodations | ineffective | purity |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...runs.map(
      (run) =>
        `| ${run.world} | ${run.seed} | ${run.strategy} | ${f.seconds(run.wallMs)} | ${run.rollouts} | ${run.llmCalls} | ` +
        `${f.accuracy(run.trainAccuracy)} | ${f.accuracy(run.seedHeldoutAccuracy)} → ${f.accuracy(run.heldoutAccuracy)} | ` +
        `${run.acceptedEdits} | ${run.accommodations} | ${run.ineffectiveEdits} | ${run.patternPurity === null ? "–" : f.accuracy(run.patternPurity)} |`,
    ),
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

/** The "where it does not hold" section, computed from the claim checks. */
export function whereItDoesNotHold(checks: ClaimCheck[]): string {
  const failing = checks.filter((check) => !check.holds);
  if (failing.length === 0) return "Every checked claim holds in this run, on every world.";
  return failing
    .map((check) =>
      `- **${check.scope}** — ${claimLabel(check.claim)}: measured ${check.measured}. ${check.explanation ?? ""}`.trimEnd(),
    )
    .join("\n");
}

/** `DIR/bench.md`: tables, charts, assumptions and the claims that do not hold. */
export function renderBenchMarkdown(result: BenchResult): string {
  const checks = checkClaims(result);
  const perWorld = result.worlds
    .map((world) => {
      const runs = result.runs.filter((run) => run.world === world.name);
      return `### ${world.name}\n\n${summaryTable(summarise(runs))}`;
    })
    .join("\n\n");
  const s = result.settings;
  return `# Ecdysis bench

${result.date} · ${result.machine.cpu} (${result.machine.cores} cores, ${result.machine.memoryGb} GB) · Node ${result.machine.node} · ${result.machine.platform}

Strategies ${s.strategies.join(", ")} · seeds ${s.seeds.join(", ")} · rollout budget ${s.budgetRollouts} per run · sim latency scale ${s.latencyScale ?? "as each world sets it"} · concurrency ${s.concurrency} · at most ${s.maxIterations} iterations (proposals) per run. Runs executed one after another in one process. *Training wall time*, rollouts, calls and tokens cover the strategy's search (what the budget bounds); *whole run* is the entire \`runEvolve\` call, the seed/final measurements and the held-out gate included.

## Headline

${ratiosTable(result.ratios)}

## Time to match

${timeToMatchSection(result)}

## Per strategy (median, min–max over all worlds and seeds)

${summaryTable(result.summary)}

${charts(result.summary)}

## Claims

${claimsTable(checks)}

## Where it does not hold

${whereItDoesNotHold(checks)}

## Per world

${perWorld}

## Worlds and the sim's assumptions

${assumptions(result)}

## All runs

${runsTable(result.runs)}
`;
}
