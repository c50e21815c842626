import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The commit checked out in the repository holding `dir`, and whether it has uncommitted
 * changes; undefined outside a repository (or without git). Run metadata, never a decision.
 */
export async function gitState(
  dir: string,
): Promise<{ commit: string; dirty: boolean } | undefined> {
  try {
    const head = await run("git", ["rev-parse", "HEAD"], { cwd: dir });
    const status = await run("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: dir,
    });
    return { commit: head.stdout.trim(), dirty: status.stdout.trim() !== "" };
  } catch {
    return undefined;
  }
}
