import { execFile } from "node:child_process";
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { uncommittedChanges } from "./git-changes.js";

const run = promisify(execFile);

async function repository(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "git-changes-"));
  const git = (...args: string[]) => run("git", args, { cwd: dir });
  await git("init", "-q");
  await writeFile(path.join(dir, "a.ts"), "export const a = 1;\n");
  await writeFile(path.join(dir, ".gitignore"), "ignored/\n");
  await git("add", ".");
  await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "seed");
  return dir;
}

describe("uncommittedChanges (real git)", () => {
  it("names the same changes alike in two checkouts, and any other change differently", async () => {
    const [one, two] = [await repository(), await repository()];
    for (const dir of [one, two]) await writeFile(path.join(dir, "a.ts"), "export const a = 2;\n");
    const edited = await uncommittedChanges(one);
    expect(edited).toMatch(/^[0-9a-f]{64}$/);
    expect(await uncommittedChanges(two)).toBe(edited);

    // A new file git would pick up counts; an ignored one does not; a link counts by its target.
    await writeFile(path.join(two, "b.ts"), "export const b = 1;\n");
    const withNew = await uncommittedChanges(two);
    expect(withNew).not.toBe(edited);
    await mkdir(path.join(two, "ignored"));
    await writeFile(path.join(two, "ignored", "c.ts"), "anything\n");
    expect(await uncommittedChanges(two)).toBe(withNew);
    await symlink("/nowhere/in/particular", path.join(two, "modules"));
    expect(await uncommittedChanges(two)).not.toBe(withNew);
  });

  it("is undefined outside a repository", async () => {
    expect(await uncommittedChanges(await mkdtemp(path.join(os.tmpdir(), "no-git-")))).toBe(
      undefined,
    );
  });
});
