import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffHarness } from "./diff-harness.js";
import type { LoadedHarness } from "./types.js";

function harness(files: Record<string, string>): LoadedHarness {
  return { kind: "builtin", dir: "/h", files, hash: "x" };
}

const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`)
    .join("\n")
    .concat("\n");

describe("diffHarness", () => {
  it("renders a unified diff with 3 lines of context and counts", () => {
    const before = harness({ "rules.md": lines(10) });
    const after = harness({ "rules.md": lines(10).replace("line 5\n", "line five\n") });
    const diff = diffHarness(before, after);
    expect(diff.patch).toBe(
      [
        "--- a/rules.md",
        "+++ b/rules.md",
        "@@ -2,7 +2,7 @@",
        " line 2",
        " line 3",
        " line 4",
        "-line 5",
        "+line five",
        " line 6",
        " line 7",
        " line 8",
        "",
      ].join("\n"),
    );
    expect(diff.files).toEqual([{ path: "rules.md", added: 1, removed: 1 }]);
  });

  it("splits distant changes into hunks and handles new files and missing final newlines", () => {
    const before = harness({ "a.md": lines(20), "same.md": "x\n" });
    const after = harness({
      "a.md": lines(20).replace("line 2\n", "two\n").replace("line 19\n", "nineteen\n"),
      "new.md": "hello",
      "same.md": "x\n",
    });
    const diff = diffHarness(before, after);
    expect(diff.patch.match(/^@@/gm)).toHaveLength(3);
    expect(diff.patch).toContain(
      "--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,1 @@\n+hello\n\\ No newline at end of file\n",
    );
    expect(diff.files.map((file) => file.path)).toEqual(["a.md", "new.md"]);
  });

  it("produces a patch that git apply accepts and that reproduces the new files", async () => {
    const beforeFiles = {
      "rules.md": "- a\n- b\n- c\n",
      "harness.yaml": "# c\nx: 1\ny: 2\n",
      "tail.md": "no newline",
    };
    const afterFiles = {
      "rules.md": "- a\n- c\n- d\n",
      "harness.yaml": "# c\nx: 1\ny: 3\nz: 4\n",
      "tail.md": "no newline\nnow",
      "k.md": "## K\n- v: 1\n",
    };
    const { patch } = diffHarness(harness(beforeFiles), harness(afterFiles));
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-diff-"));
    for (const [path, content] of Object.entries(beforeFiles))
      await writeFile(join(dir, path), content);
    await writeFile(join(dir, "change.patch"), patch);
    execFileSync("git", ["apply", "change.patch"], { cwd: dir });
    for (const [path, content] of Object.entries(afterFiles))
      expect(await readFile(join(dir, path), "utf8")).toBe(content);
  });

  it("is empty when nothing changed", () => {
    expect(diffHarness(harness({ "a.md": "x\n" }), harness({ "a.md": "x\n" }))).toEqual({
      patch: "",
      files: [],
    });
  });
});
