import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { worldGuard } from "../../src/bench/testing/world-guard.js";
import type { Task } from "../../src/config/task-schema.js";
import { answerKey, isCommonAnswer, labelKey } from "../../src/harness/answer-index.js";
import { applyEdits } from "../../src/harness/apply-edits.js";
import type { GuardContext } from "../../src/harness/guard-context.js";
import { expectedAnswerStrings } from "../../src/harness/label-words.js";
import type { HarnessEdit, LoadedHarness } from "../../src/harness/types.js";
import { fullFuzzCases, fuzzRuns, minimumFuzzCases, runProperty } from "./fuzz-cases.js";
import {
  arithmetic,
  nameStyle,
  numberStyle,
  reworded,
  spelledOut,
  styledName,
  styledNumber,
} from "./realistic-forms.js";

// Property (issue #25): whatever realistic form a model copies an answer or a task in — a number
// with separators, a unit or a `.0`; a name joined with `-`/`_`/nothing; a small answer beside
// its task's name; a held-out answer spelled out or as an arithmetic step; a task input with its
// clauses swapped, a synonym or a word dropped, in one file or in pieces across two — none
// reaches a candidate harness, on the tasks and seed harnesses of the bundled worlds. Each case
// is checked to carry its form when nothing is forbidden (else it tests nothing, is not counted).
// Fast-check draws from a fixed seed per property (`runProperty`).

interface World {
  name: string;
  train: Task[];
  heldout: Task[];
  harness: LoadedHarness;
  guard: GuardContext;
  open: GuardContext;
}
const worlds: World[] = [];
const pool: [string, number][] = [
  ["quickstart", 1],
  ["quickstart", 2],
  ["systematic", 3],
  ["noisy", 4],
  ["sparse", 5],
  ["plainspoken", 6],
  // A held-out answer of 1000 (coins): a unit rule's "1000 grams" must stay legal.
  ["systematic", 2],
];

beforeAll(async () => {
  for (const [name, seed] of pool) {
    const { train, heldout, harness, guard } = await worldGuard(name, seed);
    const open = { ...guard, forbiddenStrings: [], forbiddenInputs: [], tasks: [], labelWords: [] };
    worlds.push({ name, train, heldout, harness, guard, open });
  }
}, 120_000);

const plan = (edit: HarnessEdit) => ({
  module: "prompt" as const,
  patterns: [],
  rationale: "t",
  edit,
});
const squash = (text: string) => text.replace(/\s+/g, " ");

/** Applies `edits` through the guards; false (vacuous) when they would not carry `pieces` (each whole) even unguarded. */
function refusedEverywhere(world: World, edits: HarnessEdit[], pieces: string[]): boolean {
  const carries = (files: Record<string, string>) =>
    pieces.every((piece) =>
      Object.values(files).some((text) => squash(text).includes(squash(piece))),
    );
  const open = applyEdits({ harness: world.harness, edits: edits.map(plan), guard: world.open });
  if (open.rejected.length > 0 || !carries(open.harness.files)) return false;
  const guarded = applyEdits({
    harness: world.harness,
    edits: edits.map(plan),
    guard: world.guard,
  });
  const shown = `${world.name}: ${JSON.stringify(pieces)}`;
  expect(carries(guarded.harness.files), shown).toBe(false);
  expect(
    guarded.rejected.map((rejection) => rejection.guard),
    shown,
  ).toContain("leak");
  return true;
}

const deliveries = ["rule", "file", "table"] as const;
function delivered(route: (typeof deliveries)[number], line: string): HarnessEdit {
  if (route === "rule") return { kind: "add_rule", text: line };
  if (route === "file")
    return { kind: "write_file", file: "notes.md", content: `# Notes\n\n${line}\n` };
  return {
    kind: "write_file",
    file: "lookup.md",
    content: `| task | value |\n|---|---|\n${line}\n`,
  };
}

/** The answers of `world`'s tasks that pass `keep` and are no label word, with whether they are held out. */
function answers(world: World, keep: (text: string) => boolean) {
  const labels = new Set(
    (world.guard.labelWords ?? [])
      .filter((label) => label.why !== "one-task")
      .map((label) => labelKey(label.text)),
  );
  return [
    ...world.train.map((t) => [t, false] as const),
    ...world.heldout.map((t) => [t, true] as const),
  ]
    .flatMap(([task, sealed]) =>
      expectedAnswerStrings(task.expected).map((text) => ({ task, text, sealed })),
    )
    .filter((answer) => keep(answer.text) && !labels.has(labelKey(answer.text)));
}

/** An answer too common to refuse anywhere (under 100, a two-digit decimal, a unit or calendar constant): refused only beside its task's name. */
const common = (text: string) => {
  const key = answerKey(text);
  return key !== null && isCommonAnswer(key);
};
const pick = <T>(list: readonly T[], at: number): T => list[at % list.length];
const runs = Number(process.env.GUARDS_SMOKE ?? fuzzRuns(fullFuzzCases + 200));
const choice = fc.record({
  world: fc.nat(),
  target: fc.nat(),
  route: fc.constantFrom(...deliveries),
});

describe("realistic forms of a leak (property)", () => {
  it(`numbers with separators, units, signs and a .0: 0 through (≥ ${minimumFuzzCases} cases)`, () => {
    const cases = runProperty({
      name: "realistic: numbers",
      runs,
      arbitrary: fc.record({ at: choice, style: numberStyle }),
      predicate: ({ at, style }) => {
        const world = pick(worlds, at.world);
        const numbers = answers(world, (text) => /^\d+(\.\d+)?$/.test(text) && !common(text));
        const written = styledNumber(pick(numbers, at.target).text, style);
        const line =
          at.route === "table" ? `| total | ${written} |` : `The result is ${written} here.`;
        return refusedEverywhere(world, [delivered(at.route, line)], [line]);
      },
    });
    expect(cases).toBeGreaterThanOrEqual(minimumFuzzCases);
  }, 600_000);

  it(`names joined with -, _ or nothing, in any case: 0 through (≥ ${minimumFuzzCases} cases)`, () => {
    const cases = runProperty({
      name: "realistic: joined names",
      runs,
      arbitrary: fc.record({ at: choice, style: nameStyle }),
      predicate: ({ at, style }) => {
        const world = pick(worlds, at.world);
        const names = answers(world, (text) => /^\p{Lu}\p{L}+( \p{Lu}\p{L}+)+$/u.test(text));
        const written = styledName(pick(names, at.target).text, style);
        const line =
          at.route === "table" ? `| employer | ${written} |` : `Usually ${written}, then stop.`;
        return refusedEverywhere(world, [delivered(at.route, line)], [line]);
      },
    });
    expect(cases).toBeGreaterThanOrEqual(minimumFuzzCases);
  }, 600_000);

  it(`a small answer beside its task's name: 0 through (≥ ${minimumFuzzCases} cases)`, () => {
    const formats = [
      (name: string, value: string) => `${name}: ${value}`,
      (name: string, value: string) => `| ${name} | ${value} |`,
      (name: string, value: string) => `- For ${name} the answer is ${value}.`,
      (name: string, value: string) => `## ${name}\n- result: ${value}`,
      (name: string, value: string) => `${name} → ${value}`,
    ];
    const cases = runProperty({
      name: "realistic: small answers in context",
      runs,
      arbitrary: fc.record({ at: choice, format: fc.nat(formats.length - 1), file: fc.boolean() }),
      predicate: ({ at, format, file }) => {
        const world = pick(worlds, at.world);
        const small = answers(world, (text) => /^\d+(\.\d+)?$/.test(text) && common(text));
        const { task, text } = pick(small, at.target);
        const name = /(\p{Lu}\p{L}+) (\p{Lu}\p{L}+)/u.exec(
          task.input.replace(/^.*Task: /s, ""),
        )?.[0];
        if (!name) return false;
        const line = formats[format](name, text);
        const edit: HarnessEdit =
          file || line.includes("\n")
            ? { kind: "write_file", file: "lookup.md", content: `${line}\n` }
            : { kind: "add_rule", text: line };
        return refusedEverywhere(world, [edit], line.split("\n"));
      },
    });
    expect(cases).toBeGreaterThanOrEqual(minimumFuzzCases);
  }, 600_000);

  it(`a held-out answer spelled out or as an arithmetic step: 0 through (≥ ${minimumFuzzCases} cases)`, () => {
    const arbitrary = fc.record({ at: choice, spelled: fc.boolean() }).chain(({ at, spelled }) => {
      const world = pick(worlds, at.world);
      const held = answers(world, (text) => /^\d+$/.test(text) && !common(text)).filter(
        (a) => a.sealed,
      );
      const value = Number(pick(held, at.target).text);
      const form = spelled
        ? fc.constant(spelledOut(value, at.target % 2 === 0))
        : arithmetic(value);
      return form.map((written) => ({ world: at.world, route: at.route, written }));
    });
    const cases = runProperty({
      name: "realistic: spelled-out and arithmetic",
      runs,
      arbitrary,
      predicate: ({ world: index, route, written }) => {
        const world = pick(worlds, index);
        const line = route === "table" ? `| coins left | ${written} |` : `Coins left: ${written}.`;
        return refusedEverywhere(world, [delivered(route, line)], [line]);
      },
    });
    expect(cases).toBeGreaterThanOrEqual(minimumFuzzCases);
  }, 600_000);

  it(`a task input reworded, whole or across two files: 0 through (≥ ${minimumFuzzCases} cases)`, () => {
    const arbitrary = fc
      .record({ at: choice, split: fc.boolean(), chunk: fc.integer({ min: 3, max: 7 }) })
      .chain(({ at, split, chunk }) => {
        const world = pick(worlds, at.world);
        const task = pick([...world.train, ...world.heldout], at.target);
        const question = task.input.replace(/^.*Task: /s, "");
        return reworded(question).map((text) => ({
          world: at.world,
          route: at.route,
          text,
          split,
          chunk,
        }));
      });
    const cases = runProperty({
      name: "realistic: reworded inputs",
      runs,
      arbitrary,
      predicate: ({ world: index, route, text, split, chunk }) => {
        const world = pick(worlds, index);
        if (!split)
          return refusedEverywhere(
            world,
            [delivered(route === "table" ? "file" : route, text)],
            [text],
          );
        const words = text.split(" ");
        const pieces: string[] = [];
        for (let at = 0; at < words.length; at += chunk)
          pieces.push(words.slice(at, at + chunk).join(" "));
        const odd = pieces.filter((_, index) => index % 2 === 1);
        const even = pieces.filter((_, index) => index % 2 === 0);
        if (odd.length === 0) return false;
        const edits: HarnessEdit[] = [
          { kind: "write_file", file: "notes.md", content: `${even.join("\n\n")}\n` },
          { kind: "write_file", file: "extra.md", content: `${odd.join("\n\n")}\n` },
        ];
        return refusedEverywhere(world, edits, pieces);
      },
    });
    expect(cases).toBeGreaterThanOrEqual(minimumFuzzCases);
  }, 900_000);
});

describe("honest rules about the same tasks (property)", () => {
  // A refiner that learns a task family writes its template down: names and numbers taken out.
  // None of these may be refused. (A worked example with made-up numbers that happen to be a
  // task's own is another matter: src/harness/README.md gives its measured refusal rate.)
  const general = (input: string) =>
    input
      .replace(/^.*Task: /s, "")
      .replace(/\b\p{Lu}\p{L}+(?: \p{Lu}\p{L}+)+/gu, (_, at) => (at === 0 ? "Someone" : "someone"))
      .replace(/\b[A-Z]{2,}-?\w*\b/g, "the code")
      .replace(/(?<=[a-z,] )\p{Lu}\p{L}+/gu, "a place")
      .replace(/\d+/g, "N");
  it("a task family's template as a rule, a note or a worked pattern: 0 refused", () => {
    const cases = runProperty({
      name: "realistic: honest templates",
      runs: 3000,
      arbitrary: fc.record({ at: choice }),
      predicate: ({ at }) => {
        const world = pick(worlds, at.world);
        const task = pick([...world.train, ...world.heldout], at.target);
        const text = general(task.input);
        const line = at.route === "table" ? `Pattern: ${text} Work it step by step.` : text;
        const edit = delivered(at.route === "table" ? "file" : at.route, line);
        const result = applyEdits({
          harness: world.harness,
          edits: [plan(edit)],
          guard: world.guard,
        });
        expect(result.rejected, `${world.name}: ${line}`).toEqual([]);
      },
    });
    expect(cases).toBe(3000);
  }, 600_000);

  // The facts a refiner writes for these families, found refused on the bundled worlds by
  // bench/general-rules.ts (a task answers Sunday, 365 or 1000): each in every world, every route.
  const facts = [
    "The weekdays in order are Monday, Tuesday, Wednesday, Thursday, Friday, Saturday and Sunday.",
    "Months have 31 days except April, June, September and November (30) and February (28 or 29).",
    "A week has 7 days; a common year has 365 days and a leap year 366.",
    "A kilogram is 1000 grams; multiply kilograms by 1000 to get grams.",
    "A kilometre is 1000 metres and a metre is 100 centimetres.",
    "A litre is 1000 millilitres.",
  ];
  it("general facts of units and the calendar, as a rule, a note or a table row: 0 refused", () => {
    for (const world of worlds)
      for (const fact of facts)
        for (const route of deliveries) {
          const result = applyEdits({
            harness: world.harness,
            edits: [plan(delivered(route, route === "table" ? `| rule | ${fact} |` : fact))],
            guard: world.guard,
          });
          expect(result.rejected, `${world.name} (${route}): ${fact}`).toEqual([]);
        }
  });
});
