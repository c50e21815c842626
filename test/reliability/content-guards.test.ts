import { beforeAll, describe, expect, it } from "vitest";
import { applyEdits } from "../../src/harness/apply-edits.js";
import type { GuardContext } from "../../src/harness/guard-context.js";
import { loadHarness } from "../../src/harness/load-harness.js";
import { fixtureFiles, makeHarnessDir } from "../../src/harness/testing/harness-fixture.js";
import type { HarnessEdit, LoadedHarness, PlannedEdit } from "../../src/harness/types.js";

// Issue #10 item 3: content guards see the whole resulting text, normalised, and the values of
// the configured secrets whatever their shape.

const plan = (edit: HarnessEdit): PlannedEdit => ({
  module: "prompt",
  patterns: ["p1"],
  rationale: "test",
  edit,
});

const azureKey = "3f9c2a7e5b1d4c8fa06e9b2d7c4a1f35";
const heldoutInput =
  "Haldane Zelalis saves 27 coins a week for 31 weeks, then spends 550 coins on a lantern.";

let harness: LoadedHarness;
let guard: GuardContext;

beforeAll(async () => {
  harness = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
  guard = {
    editable: ["harness.yaml", "*.md"],
    protectedPaths: [],
    forbiddenStrings: ["Thessaloniki", "287"],
    forbiddenInputs: [heldoutInput],
    secretValues: [azureKey],
  };
});

function run(...edits: HarnessEdit[]) {
  return applyEdits({ harness, edits: edits.map(plan), guard });
}

/** Every text of the resulting harness, for "did it get in at all". */
function allText(result: { harness: LoadedHarness }): string {
  return Object.values(result.harness.files).join("\n");
}

describe("content guards: splits across edits", () => {
  it("refuses the second half of an sk- key written next to the first", () => {
    const result = run(
      { kind: "replace_text", file: "system.md", find: "careful", replace: "careful sk-abcd" },
      // The second edit's own text carries no key: only the joined file does.
      {
        kind: "replace_text",
        file: "system.md",
        find: " assistant",
        replace: "EFGH1234ijkl5678 assistant",
      },
    );
    expect(result.rejected.map((rejection) => rejection.guard)).toContain("secret");
    expect(allText(result)).not.toMatch(/sk-[A-Za-z0-9]{12,}/);
  });

  it("refuses a held-out 8-gram assembled from two edits", () => {
    const result = run(
      { kind: "add_rule", text: "Remember: Haldane Zelalis saves 27 coins" },
      {
        kind: "replace_text",
        file: "rules.md",
        find: "Zelalis saves 27 coins",
        replace: "Zelalis saves 27 coins a week for",
      },
    );
    expect(result.rejected.map((rejection) => rejection.guard)).toContain("leak");
    expect(allText(result)).not.toContain("Haldane Zelalis saves 27 coins a week for");
  });

  it("refuses a configured secret value split across two edits", () => {
    const result = run(
      {
        kind: "replace_text",
        file: "system.md",
        find: "careful",
        replace: `careful ${azureKey.slice(0, 16)}`,
      },
      {
        kind: "replace_text",
        file: "system.md",
        find: " assistant",
        replace: `${azureKey.slice(16)} assistant`,
      },
    );
    expect(result.rejected.map((rejection) => rejection.guard)).toContain("secret");
    expect(allText(result)).not.toContain(azureKey);
  });
});

describe("content guards: disguised text", () => {
  it("refuses an expected answer with a zero-width character inside", () => {
    const result = run({ kind: "add_rule", text: "The city is Thessa\u200Bloniki." });
    expect(result.rejected[0]?.guard).toBe("leak");
  });

  it("refuses an expected answer in fullwidth forms", () => {
    const result = run({ kind: "add_rule", text: "The city is Ｔｈｅｓｓａｌｏｎｉｋｉ." });
    expect(result.rejected[0]?.guard).toBe("leak");
  });

  it("refuses an answer hidden behind tag and bidi characters", () => {
    const result = run({
      kind: "add_rule",
      text: "The total is 2\u{E0031}8\u202E7 coins.",
    });
    expect(result.rejected[0]?.guard).toBe("leak");
  });

  it("refuses a held-out 8-gram in a different case with zero-width joiners", () => {
    const result = run({
      kind: "add_rule",
      text: "HALDANE ZELALIS SAVES 27 CO\u200DINS A WEEK FOR 31 WEEKS",
    });
    expect(result.rejected[0]?.guard).toBe("leak");
  });

  it("refuses an expected answer spelled with Cyrillic and Greek look-alike letters", () => {
    // "Thessaloniki" with Cyrillic е/а/о and Greek ι: renders, and reads to a model, as the answer.
    const result = run({ kind: "add_rule", text: "The city is Th\u0435ss\u0430l\u043En\u03B9ki." });
    expect(result.rejected[0]?.guard).toBe("leak");
  });

  it("refuses an sk- key spelled with a Cyrillic s and a Greek omicron", () => {
    const result = run({
      kind: "add_rule",
      text: "Use \u0455k-abcdefghijkl\u03BFmnop when asked.",
    });
    expect(result.rejected[0]?.guard).toBe("secret");
  });

  it("still accepts real Cyrillic and Greek prose that spells no answer", () => {
    const result = run({ kind: "add_rule", text: "Отвечай кратко. Απάντησε σύντομα." });
    expect(result.rejected).toEqual([]);
  });

  it("refuses a fullwidth sk- key", () => {
    const result = run({
      kind: "add_rule",
      text: "Use ｓｋ－ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐ when asked.",
    });
    expect(result.rejected[0]?.guard).toBe("secret");
  });

  it("refuses a 32-hex Azure key that is configured, though it is not sk-shaped", () => {
    const result = run({ kind: "add_rule", text: `Authenticate with ${azureKey}.` });
    expect(result.rejected[0]?.guard).toBe("secret");
    expect(result.rejected[0]?.reason).not.toContain(azureKey);
  });

  it("refuses a configured secret with Cyrillic look-alikes of its hex letters", () => {
    const disguised = azureKey
      .replace(/a/g, "\u0430")
      .replace(/c/g, "\u0441")
      .replace(/e/g, "\u0435");
    expect(disguised).not.toBe(azureKey);
    const result = run({ kind: "add_rule", text: `Authenticate with ${disguised}.` });
    expect(result.rejected[0]?.guard).toBe("secret");
  });

  it("refuses the base64 form of a configured secret", () => {
    const encoded = Buffer.from(azureKey).toString("base64");
    const result = run({ kind: "add_rule", text: `Header: Basic ${encoded}` });
    expect(result.rejected[0]?.guard).toBe("secret");
  });

  it("refuses a key spelled with YAML escapes inside harness.yaml (the parsed value is the key)", () => {
    const result = run({
      kind: "replace_text",
      file: "harness.yaml",
      find: "End with",
      replace: "Send \\u0073k-abcdefghijklmnopqrst, then end with",
    });
    expect(result.rejected[0]?.guard).toBe("secret");
  });

  it("still accepts ordinary rules", () => {
    const result = run({ kind: "add_rule", text: "Check the units before answering." });
    expect(result.rejected).toEqual([]);
  });
});

describe("the final harness is checked once more before it is written", () => {
  it("refuses a final harness that carries a forbidden string the seed did not", async () => {
    const { assertHarnessSealed } = await import("../../src/harness/final-harness-guard.js");
    const split = `Key: ${azureKey.slice(0, 10)}\u200B${azureKey.slice(10)}\n`;
    const tampered = { ...harness, files: { ...harness.files, "system.md": split } };
    expect(() => assertHarnessSealed({ seed: harness, final: tampered, guard })).toThrow(
      /'system\.md' it would contain the value of a configured secret/,
    );
    const leak = { ...harness, files: { ...harness.files, "system.md": "Say Thessaloniki.\n" } };
    expect(() => assertHarnessSealed({ seed: harness, final: leak, guard })).toThrow(/system\.md/);
    const long = { ...harness, files: { ...harness.files, [`${"n".repeat(300)}.md`]: "x\n" } };
    expect(() => assertHarnessSealed({ seed: harness, final: long, guard })).toThrow(/255 bytes/);
  });

  it("lets the seed's own text through (a knowledge line kept verbatim is no leak)", async () => {
    const { assertHarnessSealed } = await import("../../src/harness/final-harness-guard.js");
    const seeded = { ...guard, forbiddenStrings: ["France"] };
    expect(() =>
      assertHarnessSealed({ seed: harness, final: harness, guard: seeded }),
    ).not.toThrow();
  });
});
