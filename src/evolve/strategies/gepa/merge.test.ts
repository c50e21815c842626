import { describe, expect, it } from "vitest";
import type { PlannedEdit } from "../../../harness/types.js";
import { createRng } from "../../rng.js";
import { dominators, type Lineage, mergedEdits, mergeSubsample, planMerge } from "./merge.js";

function edit(module: string, text: string): PlannedEdit {
  return {
    module,
    file: "harness.yaml",
    edit: { kind: "add_rule", text },
    patterns: [],
  } as unknown as PlannedEdit;
}

const seed: Lineage = { edits: [], ancestors: [] };
const tools = edit("tools", "calculator");
const prompt = edit("prompt", "format");
const loop = edit("agent_loop", "steps");

describe("GEPA's merge proposer", () => {
  it("takes each module from the side that changed it, and the better side's where both did", () => {
    const i: Lineage = { edits: [tools, loop], ancestors: [0] };
    const j: Lineage = { edits: [prompt, edit("agent_loop", "other")], ancestors: [0] };
    expect(mergedEdits({ ancestor: seed, i, j, iBetter: true })).toEqual([tools, loop, prompt]);
    expect(mergedEdits({ ancestor: seed, i, j, iBetter: false })).toEqual([
      prompt,
      edit("agent_loop", "other"),
      tools,
    ]);
  });

  it("has nothing to merge when both changed the same modules, or one lineage does not extend the ancestor", () => {
    const i: Lineage = { edits: [tools], ancestors: [0] };
    const j: Lineage = { edits: [edit("tools", "other")], ancestors: [0] };
    expect(mergedEdits({ ancestor: seed, i, j, iBetter: true })).toBeUndefined();
    const stranger: Lineage = { edits: [prompt], ancestors: [] };
    expect(mergedEdits({ ancestor: i, i: stranger, j, iBetter: true })).toBeUndefined();
  });

  it("plans a merge of two non-dominated siblings over their common ancestor, once per triplet", () => {
    // Seed 0 passes nothing; child 1 (tools) passes a, child 2 (prompt) passes b.
    const scores = [
      new Map([
        ["a", 0],
        ["b", 0],
        ["c", 0],
      ]),
      new Map([
        ["a", 1],
        ["b", 0],
        ["c", 0],
      ]),
      new Map([
        ["a", 0],
        ["b", 1],
        ["c", 0],
      ]),
    ];
    expect(dominators(scores)).toEqual([1, 2]);
    const lineages: Lineage[] = [
      seed,
      { edits: [tools], ancestors: [0] },
      { edits: [prompt], ancestors: [0] },
    ];
    const plan = planMerge({ scores, lineages, tried: new Set(), rng: createRng(1) });
    expect(plan).toMatchObject({ i: 1, j: 2, ancestor: 0, key: "1-2-0" });
    expect(plan?.edits).toEqual([tools, prompt]);
    expect(
      planMerge({ scores, lineages, tried: new Set(["1-2-0"]), rng: createRng(1) }),
    ).toBeUndefined();
  });

  it("scores the merge on tasks where the parents differ first", () => {
    const i = new Map([
      ["a", 1],
      ["b", 0],
      ["c", 1],
      ["d", 1],
    ]);
    const j = new Map([
      ["a", 0],
      ["b", 1],
      ["c", 1],
      ["d", 1],
    ]);
    const ids = mergeSubsample({ i, j, rng: createRng(3), size: 3 });
    expect(ids.slice(0, 2).sort()).toEqual(["a", "b"]);
    expect(ids).toHaveLength(3);
  });
});
