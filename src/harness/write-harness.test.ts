import { readdir, readFile, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GuardError } from "../errors/guard-error.js";
import { applyEdits } from "./apply-edits.js";
import { loadHarness } from "./load-harness.js";
import { makeHarnessDir } from "./testing/harness-fixture.js";
import { writeHarness } from "./write-harness.js";

describe("writeHarness", () => {
  it("writes only changed and new files and leaves no temp files", async () => {
    const dir = await makeHarnessDir();
    const harness = await loadHarness({ dir, kind: "builtin" });
    const systemBefore = await stat(join(dir, "system.md"));
    const { harness: edited } = applyEdits({
      harness,
      guard: { editable: ["**/*"], protectedPaths: [], forbiddenStrings: [], forbiddenInputs: [] },
      edits: [
        {
          module: "prompt",
          patterns: [],
          rationale: "",
          edit: { kind: "add_rule", text: "Double-check units." },
        },
        {
          module: "tools",
          patterns: [],
          rationale: "",
          edit: { kind: "write_file", file: "kb/extra.md", content: "## X\n- y: z\n" },
        },
      ],
    });
    await writeHarness(edited, dir);
    expect(await readFile(join(dir, "rules.md"), "utf8")).toContain("- Double-check units.\n");
    expect(await readFile(join(dir, "kb/extra.md"), "utf8")).toBe("## X\n- y: z\n");
    expect((await stat(join(dir, "system.md"))).mtimeMs).toBe(systemBefore.mtimeMs);
    expect((await readdir(dir)).filter((name) => name.includes("ecdysis-tmp"))).toEqual([]);
    const reloaded = await loadHarness({ dir, kind: "builtin" });
    expect(reloaded.hash).toBe(edited.hash);
  });

  it("writes a whole harness into a fresh folder", async () => {
    const harness = await loadHarness({ dir: await makeHarnessDir(), kind: "builtin" });
    const target = join(await makeHarnessDir({}), "out");
    await writeHarness(harness, target);
    expect((await loadHarness({ dir: target, kind: "builtin" })).hash).toBe(harness.hash);
  });

  it("refuses paths that escape the folder, directly or through a symlink, writing nothing", async () => {
    const harness = await loadHarness({ dir: await makeHarnessDir(), kind: "builtin" });
    const target = await makeHarnessDir({});
    const escaping = { ...harness, files: { ...harness.files, "../evil.md": "x" } };
    await expect(writeHarness(escaping, target)).rejects.toBeInstanceOf(GuardError);
    expect(await readdir(target)).toEqual([]);
    const outside = await makeHarnessDir({});
    await symlink(outside, join(target, "link"));
    const viaLink = { ...harness, files: { ...harness.files, "link/evil.md": "x" } };
    await expect(writeHarness(viaLink, target)).rejects.toThrow(/outside/);
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(target)).toEqual(["link"]);
  });
});
