import { claimsTable, settingsLine, whereItDoesNotHold } from "./bench-markdown.js";
import { checkClaims } from "./claims.js";
import {
  baselineLine,
  decompositionTable,
  headlineTable,
  speedDefinitions,
} from "./comparison-markdown.js";
import { byConstruction } from "./construction.js";
import { threeUnitDefinition, threeUnitTable } from "./spend-markdown.js";
import type { BenchResult } from "./types.js";

/** Markers around the README's performance section; `npm run bench` rewrites what is between. */
export const readmeMarkers = { start: "<!-- bench:start -->", end: "<!-- bench:end -->" } as const;

/**
 * The README's performance section: the headline at each budget, the claims over all worlds
 * and every per-world claim that is not a clear yes, the decomposition, and what holds by
 * construction (by name; the full text is in bench.md).
 */
export function renderReadmeSection(
  result: BenchResult,
  options: { fullResults?: string } = {},
): string {
  const m = result.machine;
  const checks = checkClaims(result);
  const shown = checks.filter((check) => check.scope === "all worlds" || check.verdict !== "yes");
  const largest = result.settings.budgets.at(-1) as number;
  const full = options.fullResults
    ? `[${options.fullResults}](${options.fullResults})`
    : "`bench.md`";
  const worlds = result.worlds.map(
    (world) => `\`${world.name}\`${world.neutralRefiner ? " (neutral refiner)" : ""}`,
  );
  return [
    `Measured ${result.date.slice(0, 10)} on ${m.cpu} (${m.cores} cores), Node ${m.node}, by \`npm run bench\`, on worlds ${worlds.join(", ")}.`,
    `${settingsLine(result)}.`,
    "",
    baselineLine,
    "",
    speedDefinitions,
    "",
    threeUnitDefinition,
    "",
    ...result.settings.budgets.flatMap((budget) => [
      `**Budget ${budget} full-split evaluations.**`,
      "",
      headlineTable(result, budget),
      "",
      "Held-out time-to-match in three units:",
      "",
      threeUnitTable(result, budget),
      "",
    ]),
    "**Claims** (all worlds, and every per-world row that is not a clear yes):",
    "",
    claimsTable(shown, result),
    "",
    "**Where it does not hold.**",
    "",
    whereItDoesNotHold(checks),
    "",
    ...(result.settings.decomposition
      ? [
          `**Decomposition** (budget ${largest}): where each figure comes from.`,
          "",
          decompositionTable(result, largest),
          "",
        ]
      : []),
    `**What holds by construction of the sim** (explained in ${full}): ${byConstruction.map((entry) => entry.figure).join("; ")}.`,
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
