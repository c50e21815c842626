/**
 * The content guards on general rules a capable refiner writes for the bundled worlds' task
 * families (`npx tsx bench/general-rules.ts [-- --world quickstart --seeds 1,2]`).
 *
 * The sim's refiner proposes few distinct edits (bench/false-refusals.ts), so this script asks
 * the other half of the question: a fixed list of rules a reviewer would call general — the
 * facts and procedures the families need, no task's names, no task's numbers but the facts
 * themselves (1000 grams in a kilogram, the weekdays in order) — written as a rule, each through
 * the guards of every bundled world × seed (`buildGuardContext`, as evolve builds it: train and
 * held-out answers and inputs). The rules are src/bench/testing/general-rules.ts. Prints how many world × seed contexts refuse each rule, with the
 * guard's reason; asserts nothing.
 */
import { parseArgs } from "node:util";
import { generalRules } from "../src/bench/testing/general-rules.js";
import { worldGuard } from "../src/bench/testing/world-guard.js";
import { applyEdits } from "../src/harness/apply-edits.js";
import { bundledWorlds } from "../src/sim/index.js";

const { values } = parseArgs({
  options: {
    world: { type: "string" },
    seeds: { type: "string", default: "1,2,3,4,5,6,7,8,9,10" },
  },
});
const worlds = values.world ? values.world.split(",") : bundledWorlds();
const seeds = values.seeds.split(",").map(Number);
const refusals = new Map<string, { count: number; reasons: Set<string>; where: string[] }>();
let contexts = 0;
for (const name of worlds) {
  for (const seed of seeds) {
    const { harness, guard } = await worldGuard(name, seed);
    contexts += 1;
    for (const text of generalRules) {
      const result = applyEdits({
        harness,
        edits: [
          { module: "prompt", patterns: [], rationale: "r", edit: { kind: "add_rule", text } },
        ],
        guard,
      });
      for (const rejection of result.rejected) {
        const entry = refusals.get(text) ?? { count: 0, reasons: new Set(), where: [] };
        entry.count += 1;
        entry.reasons.add(`${rejection.guard}: ${rejection.reason}`);
        entry.where.push(`${name}/${seed}`);
        refusals.set(text, entry);
      }
    }
  }
}
const refused = [...refusals.values()].reduce((sum, entry) => sum + entry.count, 0);
console.log(
  `# General rules through the guards — ${generalRules.length} rules × ${contexts} world × seed contexts (seeds ${values.seeds})\n`,
);
console.log(
  `${refused} of ${generalRules.length * contexts} refused; rules refused somewhere: ${refusals.size} of ${generalRules.length}\n`,
);
for (const [text, entry] of refusals)
  console.log(
    `- ${JSON.stringify(text)}: ${entry.count} of ${contexts}\n  ${[...entry.reasons].join("; ")}\n  ${entry.where.slice(0, 8).join(", ")}${entry.where.length > 8 ? ", …" : ""}`,
  );
