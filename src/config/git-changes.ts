import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { lstat, readFile, readlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A name for the uncommitted changes of the repository holding `dir`: the sha256 of the tracked
 * changes against HEAD (`git diff HEAD --binary`) and of every untracked file git does not
 * ignore (its path and its bytes; a symbolic link, its target). Two checkouts of one commit with
 * the same changes get the same name, so work measured on them may be reused; undefined outside
 * a repository (or without git).
 */
export async function uncommittedChanges(dir: string): Promise<string | undefined> {
  try {
    const options = { cwd: dir, maxBuffer: 256 * 1024 * 1024, encoding: "buffer" as const };
    const root = (await run("git", ["rev-parse", "--show-toplevel"], { cwd: dir })).stdout.trim();
    const diff = await run("git", ["diff", "HEAD", "--binary"], options);
    const listed = await run("git", ["ls-files", "--others", "--exclude-standard", "-z"], options);
    const hash = createHash("sha256").update(diff.stdout);
    const untracked = listed.stdout.toString("utf8").split("\0").filter(Boolean).sort();
    for (const file of untracked) {
      const full = path.join(root, file);
      const link = (await lstat(full)).isSymbolicLink();
      hash.update(`\0${file}\0`).update(link ? await readlink(full) : await readFile(full));
    }
    return hash.digest("hex");
  } catch {
    return undefined;
  }
}
