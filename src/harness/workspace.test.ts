import { spawn } from "node:child_process";
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyEdits } from "./apply-edits.js";
import { loadHarness } from "./load-harness.js";
import { openHarnessWorkspace } from "./workspace.js";

const guard = { editable: ["**"], protectedPaths: [], forbiddenStrings: [], forbiddenInputs: [] };

async function seedFolder() {
  const root = await mkdtemp(join(tmpdir(), "ecdysis-workspace-"));
  const dir = join(root, "agent");
  await mkdir(join(dir, "prompts"), { recursive: true });
  await mkdir(join(dir, "node_modules", "dep"), { recursive: true });
  await writeFile(join(dir, "run.sh"), "#!/bin/sh\ncat prompts/system.md\n");
  await chmod(join(dir, "run.sh"), 0o755);
  await writeFile(join(dir, "prompts", "system.md"), "seed prompt\n");
  await writeFile(join(dir, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
  const seed = await loadHarness({ dir, kind: "command", command: ["./run.sh"] });
  return { root, dir, seed };
}

describe("openHarnessWorkspace", () => {
  it("writes each harness into a folder of its hash, with exactly its files", async () => {
    const { root, seed } = await seedFolder();
    const workspace = openHarnessWorkspace({ parent: join(root, "harnesses") });
    const candidate = applyEdits({
      harness: seed,
      edits: [
        {
          module: "command",
          patterns: [],
          rationale: "r",
          edit: { kind: "write_file", file: "prompts/system.md", content: "candidate prompt\n" },
        },
      ],
      guard,
    }).harness;
    expect(candidate.dir).toBe(seed.dir);
    const [seedFolder_, candidateFolder] = await Promise.all([
      workspace.folderOf(seed),
      workspace.folderOf(candidate),
    ]);
    expect(seedFolder_).toBe(join(workspace.root, seed.hash));
    expect(candidateFolder).toBe(join(workspace.root, candidate.hash));
    expect(await readFile(join(seedFolder_, "prompts", "system.md"), "utf8")).toBe("seed prompt\n");
    expect(await readFile(join(candidateFolder, "prompts", "system.md"), "utf8")).toBe(
      "candidate prompt\n",
    );
    // What the folder holds, read back, is the harness the hash names.
    const reloaded = await loadHarness({
      dir: candidateFolder,
      kind: "command",
      command: ["./run.sh"],
    });
    expect(reloaded.hash).toBe(candidate.hash);
    await workspace.close();
  });

  it("keeps an executable script executable and links node_modules instead of copying it", async () => {
    const { root, dir, seed } = await seedFolder();
    const workspace = openHarnessWorkspace({ parent: join(root, "harnesses") });
    const folder = await workspace.folderOf(seed);
    expect((await stat(join(folder, "run.sh"))).mode & 0o111).not.toBe(0);
    expect(await readlink(join(folder, "node_modules"))).toBe(join(dir, "node_modules"));
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("./run.sh", { cwd: folder });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.on("error", reject);
      child.on("close", () => resolve(text));
    });
    expect(output).toBe("seed prompt\n");
    await workspace.close();
  });

  it("reuses the folder when the hash repeats, even when asked concurrently", async () => {
    const { root, seed } = await seedFolder();
    const workspace = openHarnessWorkspace({ parent: join(root, "harnesses") });
    const copy = { ...seed, files: { ...seed.files } };
    const folders = await Promise.all([
      workspace.folderOf(seed),
      workspace.folderOf(copy),
      workspace.folderOf(seed),
    ]);
    expect(new Set(folders).size).toBe(1);
    // No temporary folder is left behind.
    expect(await readdir(workspace.root)).toEqual([seed.hash]);
    await workspace.close();
  });

  it("removes its folders when closed, or moves them to keepIn", async () => {
    const { root, seed } = await seedFolder();
    const parent = join(root, "harnesses");
    const removed = openHarnessWorkspace({ parent });
    await removed.folderOf(seed);
    await removed.close();
    await expect(stat(parent)).rejects.toThrow();
    const kept = openHarnessWorkspace({ parent });
    await kept.folderOf(seed);
    await kept.close({ keepIn: join(root, "out", "candidates") });
    expect(await readdir(join(root, "out", "candidates"))).toEqual([seed.hash]);
    expect(
      await readFile(join(root, "out", "candidates", seed.hash, "prompts", "system.md"), "utf8"),
    ).toBe("seed prompt\n");
    await expect(stat(kept.root)).rejects.toThrow();
  });

  it("writes nothing for a run that never runs a command, and removes the folders of a killed run", async () => {
    const { root, seed } = await seedFolder();
    const parent = join(root, "harnesses");
    const unused = openHarnessWorkspace({ parent });
    await unused.close();
    await expect(stat(parent)).rejects.toThrow();
    // A run killed mid-way left its folder behind: its process is gone (pid 2^22 + 1 is never a live pid here).
    const stale = join(parent, "run-4194305-deadbeef", seed.hash);
    await mkdir(stale, { recursive: true });
    const next = openHarnessWorkspace({ parent });
    await next.folderOf(seed);
    expect(await readdir(parent)).toEqual([next.root.slice(parent.length + 1)]);
    await next.close();
  });
});
