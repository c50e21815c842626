/**
 * The content guards on general rules a capable refiner writes for the bundled worlds' task
 * families (`npx tsx bench/general-rules.ts [-- --world quickstart --seeds 1,2]`).
 *
 * The sim's refiner proposes few distinct edits (bench/false-refusals.ts), so this script asks
 * the other half of the question: a fixed list of rules a reviewer would call general — the
 * facts and procedures the families need, no task's names, no task's numbers but the facts
 * themselves (1000 grams in a kilogram, the weekdays in order) — written as a rule, each through
 * the guards of every bundled world × seed (`buildGuardContext`, as evolve builds it: train and
 * held-out answers and inputs). Prints how many world × seed contexts refuse each rule, with the
 * guard's reason; asserts nothing.
 */
import { parseArgs } from "node:util";
import { ecdysisConfigSchema, type LoadedConfig } from "../src/config/config-schema.js";
import { buildGuardContext } from "../src/evolve/index.js";
import { applyEdits } from "../src/harness/apply-edits.js";
import { guardedFiles } from "../src/harness/content-guards.js";
import { loadHarness } from "../src/harness/load-harness.js";
import { makeHarnessDir } from "../src/harness/testing/harness-fixture.js";
import { bundledWorlds, loadWorld } from "../src/sim/index.js";
import { seedHarnessFiles } from "../src/sim/seed-harness.js";
import { generateWorld } from "../src/sim/task-generation.js";

/** General rules for the families (arithmetic, unit conversion, dates, registry look-ups, notes). */
export const generalRules = [
  "Use the calculator for every multiplication, then subtract what is spent.",
  "When something is saved every week for several weeks, multiply the weekly amount by the number of weeks first.",
  "A kilogram is 1000 grams; multiply kilograms by 1000 to get grams.",
  "A kilometre is 1000 metres and a metre is 100 centimetres.",
  "A litre is 1000 millilitres.",
  "A mile is about 1609 metres; a pound is about 454 grams.",
  "An hour has 60 minutes and 3600 seconds; a day has 24 hours and 1440 minutes.",
  "A week has 7 days; a common year has 365 days and a leap year 366.",
  "The weekdays in order are Monday, Tuesday, Wednesday, Thursday, Friday, Saturday and Sunday.",
  "To find the weekday N days after a date, find the date's weekday and count forward N modulo 7 days.",
  "Months have 31 days except April, June, September and November (30) and February (28, or 29 in a leap year).",
  "A year divisible by 4 is a leap year, except years divisible by 100 but not by 400.",
  "For registry questions, resolve one relation at a time (employer, then headquarters, then mayor) with the lookup tool.",
  "In a shipping note, copy the tracking code exactly as written, letters, dash and digits.",
  "Give weights and lengths as a plain number in the unit the question asks for, without the unit.",
  "Answer with the number only: no thousands separators and no units.",
  "If a tool call returns an error, read the message, fix the arguments and call the tool again.",
  "Round only at the end of a calculation, never in between.",
  "Keep the task statement in view: re-read the question before giving the final answer.",
  "A dozen is 12 and a score is 20.",
] as const;

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
    const world = { ...(await loadWorld(name)), seed };
    const generated = generateWorld(world);
    const dir = await makeHarnessDir(seedHarnessFiles(world, generated.knowledge));
    const harness = await loadHarness({ dir, kind: "builtin" });
    const config = ecdysisConfigSchema.parse({
      model: { provider: "sim", world: name, model: "sim-agent" },
      harness: { dir: "harness", editable: ["harness.yaml", "*.md"] },
      tasks: { train: "tasks/train.jsonl", heldout: "tasks/heldout.jsonl" },
    });
    const loaded: LoadedConfig = { config, path: `${dir}/../ecdysis.yml`, root: dir, hash: "h" };
    const base = buildGuardContext({ loaded, train: generated.train, heldout: generated.heldout });
    const guard = { ...base, seedFiles: guardedFiles(harness) };
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
