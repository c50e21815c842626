import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toEvolveOutcome } from "../bench/from-evolve-result.js";
import { InputError } from "../errors/input-error.js";
import { renderHtml } from "../report/render-html.js";
import { renderMarkdown } from "../report/render-markdown.js";
import { decide } from "./acceptance.js";
import { readEvolveResult, resultSchemaVersion } from "./result-schema.js";
import { upgradeV2 } from "./result-schema-v2.js";

/** A version 2 result.json an earlier Ecdysis wrote (a bench run, trimmed): an ablation, two repair rounds. */
const v2File = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  "../../test/fixtures/result-v2-quickstart-seed2.json",
);

async function file(content: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "ecdysis-result-"));
  const target = path.join(dir, "result.json");
  await writeFile(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

describe("readEvolveResult", () => {
  it("refuses a result.json of another schema version, naming the file and the field", async () => {
    const target = await file({ version: 1, strategy: "ecdysis", iterations: [] });
    const error = await readEvolveResult(target).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe(target);
    expect((error as InputError).location).toMatchObject({ field: "schemaVersion" });
    expect((error as InputError).message).toMatch(/reads versions 2 and 3/);
  });

  it("names the first field that does not match, and a file that is not JSON", async () => {
    const broken = await file({ schemaVersion: 3, strategy: "hill-climbing" });
    await expect(readEvolveResult(broken)).rejects.toMatchObject({
      location: { field: "strategy" },
    });
    await expect(readEvolveResult(await file("{ not json"))).rejects.toBeInstanceOf(InputError);
  });
});

describe("reading version 2", () => {
  it("upgrades the stage kinds to self-describing stages and each repair round to a follow-up record", async () => {
    const result = await readEvolveResult(v2File);
    expect(result.schemaVersion).toBe(resultSchemaVersion);
    const records = result.iterations.map((record) => [
      record.index,
      record.followUp?.n,
      record.verdict,
      record.validation.map((stage) => `${stage.step}:${stage.role}`).join(" "),
    ]);
    expect(records).toEqual([
      [
        1,
        undefined,
        "accepted",
        "cheap validation:screen full batch:verdict re-drawn flips:verdict ablation:retry full batch:verdict",
      ],
      [2, undefined, "rejected", "cheap validation:screen"],
      [2, 1, "accepted", "cheap validation:screen full batch:verdict"],
      [
        3,
        undefined,
        "rejected",
        "cheap validation:screen full batch:verdict re-drawn flips:verdict",
      ],
      [3, 1, "rejected", ""],
      [4, undefined, "rejected", ""],
      [5, undefined, "stopped", ""],
    ]);
    // Every verdict reads back from its stages as the run decided it.
    for (const record of result.iterations.filter((item) => item.validation.length > 0))
      expect(decide(record.validation).accepted).toBe(record.verdict === "accepted");
    const [, rejected, repair] = result.iterations;
    expect(rejected.reason).toBe("cheap validation: fixed 2 ≤ broken 2");
    expect(repair.followUp?.purpose).toBe("repair what the rejected candidate broke or exposed");
    expect(repair.diagnosis?.patterns.length).toBeGreaterThan(0);
    // The proposal's own edit, then the repair's two on top of it: together the accepted ones.
    expect(rejected.applied.map((planned) => planned.edit)).toEqual([
      { kind: "set", path: "tools.calculator.enabled", value: true },
    ]);
    expect(
      repair.applied.map((planned) => planned.edit.kind === "set" && planned.edit.path),
    ).toEqual(["tools.calculator.enabled", "observation.on_error", "context.overflow"]);
    // The bench reads the same harnesses in force, ending at the run's final harness; the
    // reports render it (`ecdysis compare` reads it through the same function).
    expect(toEvolveOutcome(result).inForce.at(-1)?.harnessHash).toBe(result.harness.finalHash);
    expect(renderMarkdown(result)).toContain(
      "### Iteration 2.1 (repair what the rejected candidate broke or exposed): accepted",
    );
    expect(renderHtml({ result })).toContain('id="candidate-2.1"');
  });

  it("upgrades a pruning round by whether it was put back", () => {
    const edit = {
      module: "prompt",
      patterns: ["p-1"],
      rationale: "r",
      edit: { kind: "add_rule", text: "x" },
    };
    const change = {
      edits: [edit],
      patterns: ["p-1"],
      patternNames: ["date"],
      targets: 2,
      reason: "fixed none",
    };
    const pruned = (undone: boolean) => ({
      stage: "pruned",
      round: 1,
      changes: [change],
      undone,
      decision: { accepted: false, reason: "no change fixed any" },
    });
    const upgraded = upgradeV2({
      schemaVersion: 2,
      strategy: "ecdysis",
      iterations: [{ index: 1, evidence: [pruned(false), pruned(true)] }],
    }) as { iterations: { validation: unknown[] }[] };
    expect(upgraded.iterations[0].validation).toEqual([
      {
        step: "pruning",
        role: "prune",
        changes: [
          {
            edits: [edit],
            patterns: ["date"],
            patternIds: ["p-1"],
            kept: false,
            targets: 2,
            reason: "fixed none",
          },
        ],
        figures: { round: 1 },
        decision: { accepted: false, reason: "no change fixed any" },
      },
      {
        step: "pruning",
        role: "note",
        changes: [
          {
            edits: [edit],
            patterns: ["date"],
            patternIds: ["p-1"],
            kept: true,
            targets: 2,
            reason: "fixed none",
          },
        ],
        figures: { round: 1 },
        decision: { accepted: false, reason: "no change fixed any" },
      },
    ]);
  });
});
