import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { loadHarness } from "./load-harness.js";
import { fixtureFiles, makeHarnessDir } from "./testing/harness-fixture.js";

describe("loadHarness", () => {
  it("reads every text file, parses the config and skips .git", async () => {
    const dir = await makeHarnessDir({
      ...fixtureFiles,
      ".git/config": "[core]\n",
      "sub/notes.md": "n\n",
    });
    const harness = await loadHarness({ dir, kind: "builtin" });
    expect(Object.keys(harness.files).sort()).toEqual([
      "harness.yaml",
      "knowledge.md",
      "rules.md",
      "sub/notes.md",
      "system.md",
    ]);
    expect(harness.config?.tools.calculator.enabled).toBe(true);
    expect(harness.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives the same hash for the same content and a new one when a file changes", async () => {
    const first = await loadHarness({ dir: await makeHarnessDir(), kind: "builtin" });
    const second = await loadHarness({ dir: await makeHarnessDir(), kind: "builtin" });
    const changed = await loadHarness({
      dir: await makeHarnessDir({ ...fixtureFiles, "rules.md": "- Other.\n" }),
      kind: "builtin",
    });
    expect(second.hash).toBe(first.hash);
    expect(changed.hash).not.toBe(first.hash);
  });

  it("hashes the command argv of a command harness, which needs no harness.yaml", async () => {
    const dir = await makeHarnessDir({ "agent.py": "print('hi')\n" });
    const a = await loadHarness({ dir, kind: "command", command: ["python3", "agent.py"] });
    const b = await loadHarness({
      dir,
      kind: "command",
      command: ["python3", "agent.py", "--fast"],
    });
    expect(a.config).toBeUndefined();
    expect(a.hash).not.toBe(b.hash);
  });

  it("requires harness.yaml and the files it references", async () => {
    const noYaml = await makeHarnessDir({ "system.md": "x\n" });
    await expect(loadHarness({ dir: noYaml, kind: "builtin" })).rejects.toThrow(
      /needs a harness.yaml/,
    );
    const { "knowledge.md": _, ...withoutKnowledge } = fixtureFiles;
    const dir = await makeHarnessDir(withoutKnowledge);
    const error = await loadHarness({ dir, kind: "builtin" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location.field).toBe("tools.lookup.files.0");
  });

  it("reports schema errors in harness.yaml with line and field", async () => {
    const dir = await makeHarnessDir({
      ...fixtureFiles,
      "harness.yaml": "agent_loop:\n  style: loop\n",
    });
    const error = (await loadHarness({ dir, kind: "builtin" }).catch(
      (caught: unknown) => caught,
    )) as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error.file).toBe(join(dir, "harness.yaml"));
    expect(error.location).toEqual({ line: 2, field: "agent_loop.style" });
  });

  it("rejects oversize, binary and too many files", async () => {
    const big = await makeHarnessDir({
      ...fixtureFiles,
      "big.md": "x".repeat(16 * 1024 * 1024 + 1),
    });
    await expect(loadHarness({ dir: big, kind: "builtin" })).rejects.toThrow(
      /at most 16777216 bytes/,
    );
    const binary = await makeHarnessDir(fixtureFiles);
    await writeFile(join(binary, "blob.bin"), Buffer.from([1, 0, 2]));
    await expect(loadHarness({ dir: binary, kind: "builtin" })).rejects.toThrow(/binary file/);
    const many = await makeHarnessDir(fixtureFiles);
    await mkdir(join(many, "lots"));
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => writeFile(join(many, "lots", `${index}.md`), "x")),
    );
    await expect(loadHarness({ dir: many, kind: "builtin" })).rejects.toThrow(
      /more than 200 files/,
    );
  });

  it("does not follow symlinks", async () => {
    const outside = await makeHarnessDir({ "secret.txt": "top secret\n" });
    const dir = await makeHarnessDir();
    await symlink(join(outside, "secret.txt"), join(dir, "leak.md"));
    const harness = await loadHarness({ dir, kind: "builtin" });
    expect(harness.files["leak.md"]).toBeUndefined();
  });
});
