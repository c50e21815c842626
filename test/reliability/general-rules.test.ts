import { beforeAll, describe, expect, it } from "vitest";
import { generalRules, workedExamples } from "../../src/bench/testing/general-rules.js";
import { type WorldGuard, worldGuard } from "../../src/bench/testing/world-guard.js";
import { applyEdits } from "../../src/harness/apply-edits.js";
import type { HarnessEdit } from "../../src/harness/types.js";

// The general rules bench/general-rules.ts measures (src/bench/testing/general-rules.ts), as a
// rule and as a note, through the guards of the bundled world × seed contexts where they were
// found refused: quickstart 4 ("…spent 24 hours and 26 minutes…" read "a day has 24 hours" as
// a reworded copy; the other worlds of seed 4 alike) and sparse 3 (a held-out parcel weighs
// 0.5 kg: "Half is 0.5" was its answer; "saving 5 coins a week for 4 weeks…" read as a copy);
// the general rules all at once in one file too (refused in 46 of 80 contexts on 1517b4f).
// None may be refused: the bench prints the rates over every world × seeds 1–10
// (docs/guards.md).

const contexts: [string, number][] = [
  ["quickstart", 4],
  ["systematic", 4],
  ["sparse", 3],
];
const worlds: WorldGuard[] = [];
beforeAll(async () => {
  for (const [name, seed] of contexts) worlds.push(await worldGuard(name, seed));
}, 60_000);

const routes: ((text: string) => HarnessEdit)[] = [
  (text) => ({ kind: "add_rule", text }),
  (text) => ({ kind: "write_file", file: "notes.md", content: `# Notes\n\n- ${text}\n` }),
];

describe("general rules through the guards", () => {
  const oneByOne = [...generalRules, ...workedExamples];
  it(`${oneByOne.length} general rules and worked examples, as a rule or a note: none refused`, () => {
    const refused: string[] = [];
    for (const world of worlds)
      for (const text of oneByOne)
        for (const route of routes) {
          const result = applyEdits({
            harness: world.harness,
            edits: [{ module: "prompt", patterns: [], rationale: "r", edit: route(text) }],
            guard: world.guard,
          });
          for (const rejection of result.rejected)
            refused.push(`${world.name}/${world.seed}: ${text} (${rejection.reason})`);
        }
    expect(refused).toEqual([]);
  });

  it(`all ${generalRules.length} in one notes file (a harness that gathered them): not refused`, () => {
    // The near-copy check reads all new text at once: many rules of one family's wording and
    // small numbers (31 days, 24 hours) once read as a reworded copy of a task that has them.
    const content = `# Notes\n\n${generalRules.map((text) => `- ${text}`).join("\n")}\n`;
    for (const world of worlds) {
      const result = applyEdits({
        harness: world.harness,
        edits: [
          {
            module: "prompt",
            patterns: [],
            rationale: "r",
            edit: { kind: "write_file", file: "notes.md", content },
          },
        ],
        guard: world.guard,
      });
      expect(result.rejected, `${world.name}/${world.seed}`).toEqual([]);
    }
  });
});
