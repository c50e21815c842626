import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyEdits } from "../../src/harness/apply-edits.js";
import type { GuardContext } from "../../src/harness/guard-context.js";
import { loadHarness } from "../../src/harness/load-harness.js";
import { fixtureFiles, makeHarnessDir } from "../../src/harness/testing/harness-fixture.js";
import type { HarnessEdit, LoadedHarness } from "../../src/harness/types.js";
import { writeHarness } from "../../src/harness/write-harness.js";

// Issue #10 item 6: one edit must not be able to make a run fail forever at output writing.

let harness: LoadedHarness;
const guard: GuardContext = {
  editable: ["harness.yaml", "*.md", "**/*.md"],
  protectedPaths: [],
  forbiddenStrings: [],
  forbiddenInputs: [],
};

beforeAll(async () => {
  harness = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
});

function write(file: string) {
  const edit: HarnessEdit = { kind: "write_file", file, content: "## Note\n- ok\n" };
  return applyEdits({
    harness,
    guard,
    edits: [{ module: "prompt", patterns: ["p"], rationale: "t", edit }],
  });
}

describe("portable edit paths", () => {
  it("refuses a 300-character .md name in the guard, and the harness still writes", async () => {
    const result = write(`${"a".repeat(297)}.md`);
    expect(result.rejected[0]?.guard).toBe("path");
    expect(result.rejected[0]?.reason).toMatch(/255 bytes/);
    const out = await mkdtemp(join(tmpdir(), "ecdysis-portable-"));
    await expect(writeHarness(result.harness, out)).resolves.toBeUndefined();
  });

  it("counts bytes, not characters: 130 two-byte characters are too long a segment", () => {
    expect(write(`${"é".repeat(130)}.md`).rejected[0]?.guard).toBe("path");
  });

  it("refuses a whole path beyond the length limit made of short segments", () => {
    const deep = `${Array.from({ length: 120 }, () => "abcdefghi").join("/")}/x.md`;
    expect(write(deep).rejected[0]?.reason).toMatch(/path is \d+ bytes/);
  });

  it.each([
    ["a reserved Windows name", "con.md"],
    ["a reserved name in a folder", "docs/LPT1.md"],
    ["a folder with a trailing dot", "docs./notes.md"],
    ["a folder with a trailing space", "docs /notes.md"],
    ["a colon", "notes:stream.md"],
    ["a control character", "no\u0007tes.md"],
    ["a zero-width character", "no\u200Btes.md"],
    ["a question mark", "what?.md"],
    ["a case-insensitive twin of an existing file", "RULES.md"],
  ])("refuses %s", (_what, file) => {
    const result = write(file);
    expect(result.rejected[0]?.guard).toBe("path");
  });

  it("accepts ordinary new names", () => {
    expect(write("docs/units-and-rounding.md").rejected).toEqual([]);
    expect(write("notes_v2.md").rejected).toEqual([]);
  });
});
