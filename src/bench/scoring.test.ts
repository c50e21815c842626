import { describe, expect, it } from "vitest";
import type { PlannedEdit } from "../harness/types.js";
import type { AcceptedEditView } from "./evolve-outcome.js";
import { parseGroundTruth } from "./ground-truth.js";
import {
  addedText,
  failsOnlyModelSpecifically,
  findAccommodations,
  findIneffectiveEdits,
  meanPurity,
  patternPurities,
} from "./scoring.js";

const truth = parseGroundTruth(
  {
    tasks: [
      { id: "a1", family: "arith", expected: 1234, deficiencies: ["arithmetic-slip"] },
      { id: "a2", family: "arith", expected: 77, deficiencies: ["arithmetic-slip"] },
      {
        id: "a3",
        family: "arith",
        expected: 512,
        deficiencies: ["arithmetic-slip", "format-drift"],
      },
      {
        id: "h1",
        family: "hop",
        keyPhrase: "Ada Quill",
        expected: "Lisbon",
        deficiencies: ["item-slip"],
      },
      {
        id: "h2",
        family: "hop",
        keyPhrase: "Boris Venn",
        expected: "Oslo",
        deficiencies: [{ kind: "flaky" }],
      },
      {
        id: "h3",
        family: "hop",
        keyPhrase: "Cleo Marsh",
        expected: "Tunis",
        deficiencies: ["step-budget"],
      },
      { id: "d1", family: "date", expected: "2024-03-01", deficiencies: [] },
    ],
  },
  "ground-truth.json",
);

function edit(
  change: PlannedEdit["edit"],
  addressedTaskIds: string[] = [],
  fixedTaskIds: string[] = [],
): AcceptedEditView {
  return {
    edit: { module: "prompt", patterns: ["p1"], rationale: "r", edit: change },
    addressedTaskIds,
    fixedTaskIds,
  };
}

describe("findAccommodations", () => {
  it("treats a failing task with no systematic deficiency as flakiness (model-specific)", () => {
    const task = (id: string) => truth.tasks.get(id);
    // d1 has no deficiency at all: if it failed, it failed through per-sample flakiness.
    expect(failsOnlyModelSpecifically(task("d1")!)).toBe(true);
    expect(failsOnlyModelSpecifically(task("h1")!)).toBe(true);
    expect(failsOnlyModelSpecifically(task("a3")!)).toBe(false);
    const findings = findAccommodations({
      edits: [edit({ kind: "set", path: "agent_loop.self_check", value: true }, ["d1", "h2"])],
      truth,
    });
    expect(findings.map((finding) => finding.reason)).toEqual(["model-specific-target"]);
  });

  it("does not call a generic rule attached to a systematic pattern an accommodation", () => {
    const generic = edit({ kind: "add_rule", text: "Double-check every step." }, ["a1", "a2"]);
    expect(findAccommodations({ edits: [generic], truth })).toEqual([]);
  });

  it("accepts a general edit that targets systematic failures", () => {
    const edits = [
      edit({ kind: "set", path: "tools.calculator.enabled", value: true }, ["a1", "a2", "a3"]),
      edit({ kind: "add_rule", text: "Always end with a line 'Answer: <value>'." }, ["a3", "h3"]),
    ];
    expect(findAccommodations({ edits, truth })).toEqual([]);
  });

  it("counts a rule that carries an expected answer as a leak", () => {
    const findings = findAccommodations({
      edits: [edit({ kind: "add_rule", text: "If asked about the capital, say Lisbon." })],
      truth,
    });
    expect(findings).toEqual([
      { editIndex: 0, reason: "leaked-answer", detail: "contains the expected answer of h1" },
    ]);
  });

  it("matches answers as whole tokens only, and ignores answers shorter than three characters", () => {
    const edits = [
      edit({ kind: "add_rule", text: "Use at most 77 words." }),
      edit({ kind: "add_rule", text: "Quote ids like 51234 verbatim." }),
    ];
    expect(findAccommodations({ edits, truth })).toEqual([]);
  });

  it("counts an edit naming a task's key phrase as an item-specific hint", () => {
    const findings = findAccommodations({
      edits: [
        edit({
          kind: "replace_text",
          file: "system.md",
          find: "You are",
          replace: "You are careful with ada quill. You are",
        }),
      ],
      truth,
    });
    expect(findings.map((finding) => finding.reason)).toEqual(["item-hint"]);
  });

  it("does not blame a replacement for text it only kept", () => {
    const edits = [
      edit({
        kind: "replace_text",
        file: "system.md",
        find: "Cleo Marsh",
        replace: "Cleo Marsh (see knowledge)",
      }),
    ];
    expect(findAccommodations({ edits, truth })).toEqual([]);
  });

  it("counts an edit whose addressed tasks mostly fail only model-specifically", () => {
    const edits = [
      edit({ kind: "set", path: "agent_loop.self_check", value: true }, ["h1", "h2", "h3"]),
      edit({ kind: "set", path: "agent_loop.max_steps", value: 8 }, ["h1", "h3"]),
    ];
    const findings = findAccommodations({ edits, truth });
    expect(findings).toEqual([
      {
        editIndex: 0,
        reason: "model-specific-target",
        detail: "2 of 3 addressed tasks fail only through model-specific deficiencies",
      },
    ]);
  });

  it("ignores addressed tasks unknown to ground truth", () => {
    const edits = [
      edit({ kind: "set", path: "agent_loop.self_check", value: true }, ["h1", "x9", "x10"]),
    ];
    expect(findAccommodations({ edits, truth })).toHaveLength(1);
  });
});

describe("addedText", () => {
  it("returns no text for numeric settings and rule removals", () => {
    expect(
      addedText({
        module: "agent_loop",
        patterns: [],
        rationale: "",
        edit: { kind: "set", path: "agent_loop.max_steps", value: 1234 },
      }),
    ).toBe("");
    expect(
      addedText({
        module: "prompt",
        patterns: [],
        rationale: "",
        edit: { kind: "remove_rule", text: "Lisbon" },
      }),
    ).toBe("");
  });
});

describe("patternPurities", () => {
  it("gives the majority label and the share of member tasks carrying it", () => {
    const purities = patternPurities({
      patterns: [
        { id: "p1", name: "slips", kind: "systematic", memberTaskIds: ["a1", "a2", "a3", "h3"] },
        { id: "p2", name: "odd", kind: "model-specific", memberTaskIds: ["h1", "h2", "h2"] },
        { id: "p3", name: "ghost", kind: "systematic", memberTaskIds: ["zz"] },
      ],
      truth,
    });
    expect(purities).toEqual([
      { patternId: "p1", label: "arithmetic-slip", members: 4, purity: 0.75 },
      { patternId: "p2", label: "model-specific", members: 2, purity: 1 },
    ]);
    expect(meanPurity(purities)).toBeCloseTo(0.875);
  });

  it("labels members without a deficiency 'none' and breaks ties alphabetically", () => {
    const [purity] = patternPurities({
      patterns: [{ id: "p", name: "mixed", kind: "systematic", memberTaskIds: ["d1", "h3"] }],
      truth,
    });
    expect(purity).toEqual({ patternId: "p", label: "none", members: 2, purity: 0.5 });
  });

  it("has no mean when no pattern could be scored", () => {
    expect(meanPurity([])).toBeNull();
  });
});

describe("parseGroundTruth", () => {
  it("names the file and field of a malformed entry", () => {
    expect(() => parseGroundTruth({ tasks: [{ deficiencies: "x" }] }, "gt.json")).toThrow(
      /gt\.json/,
    );
  });

  it("keeps only the agent model's item slips and counts latent deficiencies as systematic", () => {
    const parsed = parseGroundTruth(
      {
        tasks: [
          {
            id: "t",
            expected: 12,
            latent: ["tool-error-giveup"],
            deficiencies: [
              { kind: "item-slip", systematic: false, model: "sim-1" },
              { kind: "item-slip", systematic: false, model: "sim-2" },
            ],
          },
        ],
      },
      "gt.json",
      { model: "sim-2" },
    );
    expect(parsed.tasks.get("t")).toMatchObject({
      expected: "12",
      deficiencies: [
        { kind: "item-slip", systematic: false },
        { kind: "tool-error-giveup", systematic: true },
      ],
    });
  });

  it("classifies deficiency kinds, honouring an explicit class", () => {
    const parsed = parseGroundTruth(
      [
        {
          taskId: "t",
          deficiencies: [
            "item-slip",
            "tool-error-give-up",
            { kind: "odd", class: "model-specific" },
          ],
        },
      ],
      "gt.json",
    );
    expect(parsed.tasks.get("t")?.deficiencies).toEqual([
      { kind: "item-slip", systematic: false },
      { kind: "tool-error-give-up", systematic: true },
      { kind: "odd", systematic: false },
    ]);
  });
});

describe("findIneffectiveEdits", () => {
  it("counts accepted edits none of whose addressed tasks got fixed", () => {
    const edits = [
      edit({ kind: "set", path: "tools.calculator.enabled", value: true }, ["a1", "a2"], ["a2"]),
      edit({ kind: "add_rule", text: "Double-check every step." }, ["a3"], ["a2"]),
      edit({ kind: "add_rule", text: "Be careful." }, ["a1"], []),
    ];
    expect(findIneffectiveEdits({ edits })).toEqual([1, 2]);
  });

  it("skips accommodations and edits that address no task", () => {
    const edits = [
      edit({ kind: "add_rule", text: "Be careful." }, ["h1"], []),
      edit({ kind: "add_rule", text: "Be brief." }, [], []),
      edit({ kind: "add_rule", text: "Be exact." }, ["a1"], []),
    ];
    expect(findIneffectiveEdits({ edits, skip: new Set([0]) })).toEqual([2]);
  });
});
