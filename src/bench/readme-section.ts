import {
  claimsTable,
  formatters,
  ratiosTable,
  summaryTable,
  whereItDoesNotHold,
} from "./bench-markdown.js";
import { checkClaims } from "./claims.js";
import { speedDefinitions } from "./time-to-match-markdown.js";
import type { BenchResult } from "./types.js";

/** Markers around the README's performance section; `npm run bench` rewrites what is between. */
export const readmeMarkers = { start: "<!-- bench:start -->", end: "<!-- bench:end -->" } as const;

/** The README's performance section: headline ratios, per-strategy table, claims, caveats. */
export function renderReadmeSection(
  result: BenchResult,
  options: { fullResults?: string } = {},
): string {
  const m = result.machine;
  const s = result.settings;
  const worlds = result.worlds.map(
    (world) => `\`${world.name}\`${world.neutralRefiner ? " (neutral refiner)" : ""}`,
  );
  return [
    `Measured ${result.date.slice(0, 10)} on ${m.cpu} (${m.cores} cores), Node ${m.node}, by \`npm run bench\`:`,
    `worlds ${worlds.join(", ")} × seeds ${s.seeds.join(", ")} × strategies ${s.strategies.join(", ")},`,
    `rollout budget ${s.budgetRollouts} and at most ${s.maxIterations} iterations per run, concurrency ${s.concurrency}, sim latency scale ${s.latencyScale ?? "per world"}.`,
    `Time-to-match (median over world × seed): Ecdysis reached the iterative baseline's best train accuracy`,
    `${formatters.ratio(result.ratios.timeToMatchIterativeOverEcdysis)} faster than the baseline did (${result.ratios.timeToMatchPairs} pair(s), ${result.ratios.timeToMatchFailures} where it never did, counted as 0×; ${result.ratios.timeToMatchNoTarget} where the baseline never improved, left out).`,
    `Total training wall time iterative / Ecdysis: ${formatters.ratio(result.ratios.wallTimeIterativeOverEcdysis)}; rollouts ${formatters.ratio(result.ratios.rolloutsIterativeOverEcdysis)}.`,
    `Held-out accuracy Ecdysis − iterative ${formatters.points(result.ratios.heldoutDiffEcdysisMinusIterative)}`,
    `(${formatters.gain(result.ratios.heldoutRelativeGainOverIterative)} relative) and`,
    `${formatters.points(result.ratios.heldoutDiffEcdysisMinusSampling)} over majority-vote sampling at the same budget.`,
    "",
    ratiosTable(result.ratios),
    "",
    speedDefinitions,
    "",
    summaryTable(result.summary),
    "",
    claimsTable(checkClaims(result)),
    "",
    "**Where it does not hold.**",
    "",
    whereItDoesNotHold(checkClaims(result)),
    "",
    "The sim's refiner-side assumptions (how diagnosis accuracy grows with the number of instances",
    `shown) are world parameters, printed with the full results${options.fullResults ? ` in [${options.fullResults}](${options.fullResults})` : " in `bench.md`"}.`,
  ].join("\n");
}

/**
 * Replaces the text between the bench markers of a README with `section`; appends a
 * "Performance" heading with the markers when the README has none.
 */
export function replaceReadmeSection(readme: string, section: string): string {
  const { start, end } = readmeMarkers;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    return `${readme.trimEnd()}\n\n## Performance\n\n${start}\n${section}\n${end}\n`;
  }
  return `${readme.slice(0, from + start.length)}\n${section}\n${readme.slice(to)}`;
}
