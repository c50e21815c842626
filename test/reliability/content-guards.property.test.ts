import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parseHarnessYaml } from "../../src/config/harness-yaml.js";
import { applyEdits } from "../../src/harness/apply-edits.js";
import { applyToText, editTarget } from "../../src/harness/edit-operations.js";
import { assertHarnessSealed } from "../../src/harness/final-harness-guard.js";
import type { GuardContext } from "../../src/harness/guard-context.js";
import { loadHarness } from "../../src/harness/load-harness.js";
import { fixtureFiles, makeHarnessDir } from "../../src/harness/testing/harness-fixture.js";
import type { HarnessEdit, LoadedHarness, PlannedEdit } from "../../src/harness/types.js";
import { fuzzRuns, minimumFuzzCases, runProperty } from "./fuzz-cases.js";

// Property: whatever edits an LLM proposes, no forbidden string reaches a candidate harness —
// a configured secret value, an sk- key, an expected answer, an 8-word run of a task input —
// even when it is split across up to four edits (and files' neighbouring text), disguised with
// zero-width, bidi and tag characters, fullwidth forms, case and spacing, or spelled with YAML
// escapes in harness.yaml — and whatever label words the context allows. The same edits without the guards do assemble it (so every case
// tests something), and the final-harness check agrees with the edit guards.

let harness: LoadedHarness;

beforeAll(async () => {
  harness = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
});

type Kind = "secret-value" | "sk-key" | "answer" | "ngram";
interface Item {
  kind: Kind;
  /** The forbidden string as the guard context holds it. */
  forbidden: string;
  /** The text whose presence means the item got in (for n-grams: the 8 words). */
  needle: string;
}

const lower = "abcdefghijklmnopqrstuvwxyz".split("");
const alnum = [...lower, ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split("")];
const hex = "0123456789abcdef".split("");
const word = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...lower), minLength: min, maxLength: max });

const item: fc.Arbitrary<Item> = fc.oneof(
  fc
    .string({ unit: fc.constantFrom(...hex), minLength: 32, maxLength: 32 })
    .map((value): Item => ({ kind: "secret-value", forbidden: value, needle: value })),
  fc
    .string({ unit: fc.constantFrom(...alnum), minLength: 16, maxLength: 28 })
    .map((body): Item => ({ kind: "sk-key", forbidden: "", needle: `sk-${body}` })),
  word(5, 10).map(
    (body): Item => ({ kind: "answer", forbidden: `Zq${body}`, needle: `zq${body}` }),
  ),
  fc.array(word(3, 7), { minLength: 10, maxLength: 14 }).chain((words) =>
    fc.integer({ min: 0, max: words.length - 8 }).map((start): Item => {
      const sentence = words.map((each) => `w${each}`);
      return {
        kind: "ngram",
        forbidden: sentence.join(" "),
        needle: sentence.slice(start, start + 8).join(" "),
      };
    }),
  ),
);

const invisible = [
  "\u200B",
  "\u200C",
  "\u200D",
  "\u2060",
  "\u202E",
  "\u2066",
  "\uFEFF",
  "\u00AD",
  "\u{E0020}",
  "\u{E0061}",
];

/** A disguise: which characters become fullwidth, where invisible characters go, case and spacing. */
const disguise = fc.record({
  fullwidth: fc.array(fc.boolean(), { maxLength: 80 }),
  insertions: fc.array(fc.tuple(fc.nat(80), fc.constantFrom(...invisible)), { maxLength: 6 }),
  upper: fc.boolean(),
  spacing: fc.constantFrom(" ", "  ", "\n", " \t "),
});

function disguised(
  target: Item,
  shape: fc.Arbitrary<unknown> extends never ? never : DisguiseValue,
): string {
  let text = target.needle;
  if (target.kind === "ngram") text = text.split(" ").join(shape.spacing);
  if (shape.upper && (target.kind === "answer" || target.kind === "ngram"))
    text = text.toUpperCase();
  const chars = [...text].map((char, index) =>
    shape.fullwidth[index] && char >= "!" && char <= "~"
      ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0)
      : char,
  );
  for (const [at, char] of shape.insertions) chars.splice(at % (chars.length + 1), 0, char);
  return chars.join("");
}
type DisguiseValue = {
  fullwidth: boolean[];
  insertions: [number, string][];
  upper: boolean;
  spacing: string;
};

/** How the pieces reach the harness. */
const delivery = fc.constantFrom(
  "system-chain",
  "rule-chain",
  "new-file-chain",
  "yaml-set",
  "yaml-escape",
);

const marker = (index: number) => `QQMK${index}QQ`;

const plan = (edit: HarnessEdit): PlannedEdit => ({
  module: "prompt",
  patterns: ["p"],
  rationale: "t",
  edit,
});

/** Edits that, unguarded, leave `text` assembled from `pieces` in one file. */
function editsFor(route: string, pieces: string[], whole: string): HarnessEdit[] {
  const chain = (file: string, first: HarnessEdit): HarnessEdit[] => [
    first,
    ...pieces.slice(1).map(
      (piece, index): HarnessEdit => ({
        kind: "replace_text",
        file,
        find: marker(index + 1),
        replace: index + 2 < pieces.length ? `${piece}${marker(index + 2)}` : piece,
      }),
    ),
  ];
  const head = pieces.length > 1 ? `${pieces[0]}${marker(1)}` : pieces[0];
  switch (route) {
    case "system-chain":
      return chain("system.md", {
        kind: "replace_text",
        file: "system.md",
        find: "careful",
        replace: `careful ${head}`,
      });
    case "rule-chain":
      return chain("rules.md", { kind: "add_rule", text: `Remember ${head} always` });
    case "new-file-chain":
      return chain("notes.md", {
        kind: "write_file",
        file: "notes.md",
        content: `# Notes\n\n${head}\n`,
      });
    case "yaml-set":
      return [
        { kind: "set", path: "completion.format_instruction", value: `Say ${whole} then stop.` },
      ];
    default: {
      // YAML double-quoted escapes: the raw file never holds the text, the parsed value does.
      const escaped = [...whole]
        .map((char, index) =>
          index % 2 === 0
            ? `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0").slice(-4)}`
            : char === '"' || char === "\\"
              ? `\\${char}`
              : char,
        )
        .join("");
      const safe = [...whole].every(
        (char) => (char.codePointAt(0) ?? 0) <= 0xffff && char !== "\n" && char !== "\t",
      );
      return safe
        ? [
            {
              kind: "replace_text",
              file: "harness.yaml",
              find: "End with",
              replace: `Say ${escaped}; end with`,
            },
          ]
        : [
            {
              kind: "set",
              path: "completion.format_instruction",
              value: `Say ${whole} then stop.`,
            },
          ];
    }
  }
}

/** Cut `text` (by code point) at the given fractions into up to four pieces. */
function split(text: string, cuts: number[]): string[] {
  const chars = [...text];
  const points = [...new Set(cuts.map((cut) => Math.floor(cut * chars.length)))]
    .filter((point) => point > 0 && point < chars.length)
    .sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(chars.slice(from, point).join(""));
    from = point;
  }
  pieces.push(chars.slice(from).join(""));
  return pieces;
}

/** Independent oracle: does the harness (files and parsed config) carry the item? */
function carries(candidate: LoadedHarness, target: Item): boolean {
  const strip = (text: string) =>
    text
      .replace(/[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]|\u{E0000}-\u{E007F}/gu, "")
      .replace(/[\u{E0000}-\u{E007F}]/gu, "")
      .normalize("NFKC");
  const text = strip(
    [...Object.values(candidate.files), JSON.stringify(candidate.config ?? {})].join("\n"),
  );
  switch (target.kind) {
    case "secret-value":
      return text.replace(/\s+/g, "").includes(target.needle);
    case "sk-key":
      return text.includes(target.needle);
    case "answer":
      return new RegExp(`(?<![a-z0-9_])${target.needle}(?![a-z0-9_])`, "i").test(text);
    case "ngram":
      return ` ${text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .join(" ")} `.includes(` ${target.needle} `);
  }
}

function contextFor(target: Item): GuardContext {
  return {
    editable: ["harness.yaml", "*.md"],
    protectedPaths: [],
    forbiddenStrings: target.kind === "answer" ? [target.forbidden] : ["Thessaloniki"],
    forbiddenInputs: target.kind === "ngram" ? [target.forbidden] : [],
    secretValues: target.kind === "secret-value" ? [target.forbidden] : [],
    // Label words are allowed (flagged), but never open the door to an answer that is not one:
    // not even a label that is the forbidden answer's own prefix.
    labelWords: [
      { text: "yes", why: "common-answer" },
      { text: "positive", why: "choice" },
      ...(target.kind === "answer"
        ? [{ text: target.forbidden.slice(0, 4), why: "in-inputs" as const }]
        : []),
    ],
  };
}

/** The edits applied as plain text operations, with no guard at all (what would reach the harness). */
function unguarded(edits: PlannedEdit[]): LoadedHarness {
  const files = { ...harness.files };
  let config = harness.config;
  for (const { edit } of edits) {
    const target = editTarget(edit, config);
    if ("reason" in target) throw new Error(target.reason);
    const result = applyToText(edit, files[target.file]);
    if (!result.ok) throw new Error(result.reason);
    files[target.file] = result.text;
    if (target.file === "harness.yaml") config = parseHarnessYaml("harness.yaml", result.text);
  }
  return { ...harness, files, config };
}

describe("content guards (property)", () => {
  it(`no forbidden string reaches a candidate harness (≥ ${minimumFuzzCases} cases)`, () => {
    let reached = 0;
    const cases = runProperty({
      name: "content guards",
      runs: fuzzRuns(11_200),
      arbitrary: fc.record({
        target: item,
        shape: disguise,
        route: delivery,
        cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
      }),
      predicate: ({ target, shape, route, cuts }) => {
        const whole = disguised(target, shape);
        const edits = editsFor(route, split(whole, cuts), whole).map(plan);
        // Without the guards the edits do assemble the item: the case tests something.
        const open = unguarded(edits);
        // A disguise the edit itself undoes (add_rule folds U+FEFF, a \s character, into a
        // space) leaves nothing to find: that case tests nothing and is not counted.
        if (!carries(open, target)) return false;
        const guard = contextFor(target);
        const guarded = applyEdits({ harness, edits, guard });
        if (carries(guarded.harness, target)) reached += 1;
        expect(carries(guarded.harness, target)).toBe(false);
        expect(guarded.rejected.length).toBeGreaterThan(0);
        expect(() =>
          assertHarnessSealed({ seed: harness, final: guarded.harness, guard }),
        ).not.toThrow();
        // And the final check alone would have stopped the unguarded harness.
        expect(() => assertHarnessSealed({ seed: harness, final: open, guard })).toThrow();
        return true;
      },
    });
    expect(cases).toBeGreaterThanOrEqual(minimumFuzzCases);
    expect(reached).toBe(0);
  }, 300_000);
});
