import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join, relative } from "node:path";
import { packageRoot } from "../config/ecdysis-version.js";

/** A word quoted for a POSIX shell only when it needs it (`agent/ecdysis.yml` stays bare). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A path as the user would type it from `cwd`: relative when inside it, else absolute. */
export function pathFrom(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

function onPath(name: string, env: Record<string, string | undefined>): boolean {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/**
 * How to run this CLI in a printed command: `ecdysis` when a command of that name is on PATH
 * (installed), else `node <this package>/bin/ecdysis.js` — so a printed command runs as printed.
 */
export function cliInvocation(env: Record<string, string | undefined>): string {
  if (onPath("ecdysis", env)) return "ecdysis";
  return `node ${shellQuote(join(packageRoot(), "bin", "ecdysis.js"))}`;
}
