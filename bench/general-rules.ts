/**
 * The content guards on general rules a capable refiner writes for the bundled worlds' task
 * families (`npx tsx bench/general-rules.ts [-- --world quickstart --seeds 1,2]`).
 *
 * The sim's refiner proposes few distinct edits (bench/false-refusals.ts), so this script asks
 * the other half of the question: a fixed list of rules a reviewer would call general — the
 * facts and procedures the families need, tool use, answer format; no task's names, no task's
 * numbers but the facts themselves (1000 grams in a kilogram, the weekdays in order) — and of
 * worked examples with made-up numbers (src/bench/testing/general-rules.ts). Each goes through
 * the guards of every bundled world × seed (`worldGuard`: the guard context evolve builds, train
 * and held-out answers and inputs), one by one as a rule and as a line of a notes file, then all
 * of a list at once in one notes file (a harness that has gathered them over many iterations).
 * Prints how many checks refuse, and each refusal's rule, guard reason and where; asserts nothing.
 */
import { parseArgs } from "node:util";
import { generalRules, workedExamples } from "../src/bench/testing/general-rules.js";
import { type WorldGuard, worldGuard } from "../src/bench/testing/world-guard.js";
import { applyEdits } from "../src/harness/apply-edits.js";
import type { HarnessEdit } from "../src/harness/types.js";
import { bundledWorlds } from "../src/sim/index.js";

const { values } = parseArgs({
  options: {
    world: { type: "string" },
    seeds: { type: "string", default: "1,2,3,4,5,6,7,8,9,10" },
  },
});
const worlds = values.world ? values.world.split(",") : bundledWorlds();
const seeds = values.seeds.split(",").map(Number);

const note = (lines: readonly string[]): HarnessEdit => ({
  kind: "write_file",
  file: "notes.md",
  content: `# Notes\n\n${lines.map((line) => `- ${line}`).join("\n")}\n`,
});
/** How a list is written into the harness: each text as a rule, as a note; all in one note. */
const routes: Record<string, (list: readonly string[]) => { text: string; edit: HarnessEdit }[]> = {
  rule: (list) => list.map((text) => ({ text, edit: { kind: "add_rule", text } })),
  note: (list) => list.map((text) => ({ text, edit: note([text]) })),
  "all at once": (list) => [{ text: `all ${list.length}`, edit: note(list) }],
};
const lists: Record<string, readonly string[]> = {
  "general rules": generalRules,
  "worked examples": workedExamples,
  both: [...generalRules, ...workedExamples],
};

interface Tally {
  checks: number;
  refused: number;
  /** Refused text → reasons and where. */
  cases: Map<string, { reasons: Set<string>; where: string[] }>;
}
const tallies = new Map<string, Tally>();
let contexts = 0;
for (const name of worlds)
  for (const seed of seeds) {
    const world = await worldGuard(name, seed);
    contexts += 1;
    for (const [listName, list] of Object.entries(lists))
      for (const [route, write] of Object.entries(routes))
        if (listName !== "both" || route === "all at once")
          check(world, `${listName} | ${route}`, write(list));
  }

function check(world: WorldGuard, key: string, edits: { text: string; edit: HarnessEdit }[]) {
  const tally = tallies.get(key) ?? { checks: 0, refused: 0, cases: new Map() };
  tallies.set(key, tally);
  for (const { text, edit } of edits) {
    tally.checks += 1;
    const result = applyEdits({
      harness: world.harness,
      edits: [{ module: "prompt", patterns: [], rationale: "r", edit }],
      guard: world.guard,
    });
    if (result.rejected.length === 0) continue;
    tally.refused += 1;
    const entry = tally.cases.get(text) ?? { reasons: new Set(), where: [] };
    for (const rejection of result.rejected)
      entry.reasons.add(`${rejection.guard}: ${rejection.reason}`);
    entry.where.push(`${world.name}/${world.seed}`);
    tally.cases.set(text, entry);
  }
}

console.log(
  `# General rules through the guards — ${contexts} world × seed contexts (seeds ${values.seeds}); ${generalRules.length} general rules, ${workedExamples.length} worked examples\n`,
);
console.log("| list | written | refused |\n|---|---|---|");
for (const [key, tally] of tallies) console.log(`| ${key} | ${tally.refused} of ${tally.checks} |`);
for (const [key, tally] of tallies)
  for (const [text, entry] of tally.cases)
    console.log(
      `\n- ${key}: ${JSON.stringify(text)}: ${entry.where.length}\n  ${[...entry.reasons].join("; ")}\n  ${entry.where.slice(0, 8).join(", ")}${entry.where.length > 8 ? ", …" : ""}`,
    );
