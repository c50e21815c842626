import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { escapeInvisible } from "../safety/guard-text.js";
import { globToRegExp } from "./glob.js";
import { normaliseRelative } from "./harness-references.js";
import { portablePathProblem } from "./portable-path.js";

/** Verdict of the path guard: the normalised relative path, or why it is refused. */
export type PathVerdict = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Decides whether an edit may touch `path` (relative to the harness folder `dir`): no absolute
 * paths, `..`, backslashes or NUL; never `.git/` or `.github/` (any case); only paths matching
 * an `editable` glob; nothing resolving to or into a protected path; no symlink inside the
 * folder that leads outside it; a path that is not among the `existing` files must be portable
 * (`portablePathProblem`: length, characters, reserved names, case twins) and must not clash
 * with a file or folder of the harness (`rules.md/notes.md` when `rules.md` is a file, in the
 * harness or on disk). Reads the file
 * system (lstat/realpath) but never writes. Reasons show invisible characters escaped.
 */
export function checkEditPath(input: {
  dir: string;
  path: string;
  editable: string[];
  protectedPaths: string[];
  /** The harness's current files (relative paths); omitted, every path is checked as new. */
  existing?: readonly string[];
}): PathVerdict {
  const verdict = checkPath(input);
  return verdict.ok ? verdict : { ok: false, reason: escapeInvisible(verdict.reason) };
}

function checkPath(input: {
  dir: string;
  path: string;
  editable: string[];
  protectedPaths: string[];
  existing?: readonly string[];
}): PathVerdict {
  const { path } = input;
  if (path.includes("\0")) return { ok: false, reason: "path contains a NUL byte" };
  if (path.includes("\\")) return { ok: false, reason: `path '${path}' contains a backslash` };
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path))
    return { ok: false, reason: `path '${path}' is absolute` };
  if (path.split("/").includes(".."))
    return { ok: false, reason: `path '${path}' contains a '..' segment` };
  const normalised = normaliseRelative(path);
  if (normalised === null)
    return { ok: false, reason: `path '${path}' is not a file path inside the harness` };
  const forbiddenSegment = normalised
    .split("/")
    .find((segment) => [".git", ".github"].includes(segment.toLowerCase()));
  if (forbiddenSegment)
    return {
      ok: false,
      reason: `path '${path}' is inside '${forbiddenSegment}/', which edits never touch`,
    };
  const existing = input.existing ?? [];
  if (!existing.includes(normalised)) {
    const problem = portablePathProblem(normalised, existing);
    if (problem) return { ok: false, reason: `path '${shorten(normalised)}': ${problem}` };
  }
  if (!input.editable.some((glob) => globToRegExp(glob).test(normalised))) {
    return {
      ok: false,
      reason: `path '${normalised}' matches none of the editable globs (${input.editable.join(", ")})`,
    };
  }
  const symlink = escapingSymlink(input.dir, normalised);
  if (symlink) return { ok: false, reason: symlink };
  const clash = existing.includes(normalised) ? null : clashOnDisk(input.dir, normalised);
  if (clash) return { ok: false, reason: `path '${shorten(normalised)}': ${clash}` };
  const target = resolve(input.dir, normalised);
  const real = realTarget(target);
  for (const protectedPath of input.protectedPaths) {
    const candidates = [resolve(protectedPath), realTarget(resolve(protectedPath))];
    // Lower-cased too: on case-insensitive file systems `Ecdysis.yml` is `ecdysis.yml`.
    const hits = (candidate: string) =>
      [target, real].some(
        (path) =>
          isInside(candidate, path) || isInside(candidate.toLowerCase(), path.toLowerCase()),
      );
    if (candidates.some(hits)) {
      return {
        ok: false,
        reason: `path '${normalised}' resolves to protected path '${protectedPath}'`,
      };
    }
  }
  return { ok: true, path: normalised };
}

/** A path cut to a printable length for a message (a refused name may be thousands of bytes). */
function shorten(path: string): string {
  return path.length <= 80 ? path : `${path.slice(0, 60)}…${path.slice(-16)}`;
}

/** A reason when some existing component of `path` under `dir` is a symlink leading outside `dir`. */
function escapingSymlink(dir: string, path: string): string | null {
  const realDir = realTarget(resolve(dir));
  const segments = path.split("/");
  for (let index = 1; index <= segments.length; index += 1) {
    const partial = join(dir, ...segments.slice(0, index));
    let isLink = false;
    try {
      isLink = lstatSync(partial).isSymbolicLink();
    } catch {
      return null;
    }
    if (!isLink) continue;
    let real: string;
    try {
      real = realpathSync(partial);
    } catch {
      return `'${segments.slice(0, index).join("/")}' is a dangling symlink`;
    }
    if (!isInside(realDir, real))
      return `'${segments.slice(0, index).join("/")}' is a symlink pointing outside the harness folder`;
  }
  return null;
}

/**
 * Why a new file at `path` could not be written in the folder as it is on disk (a file the
 * harness did not load — too big, under a skipped folder — where the path needs a folder, or a
 * folder at the path itself); null when it can.
 */
function clashOnDisk(dir: string, path: string): string | null {
  const segments = path.split("/");
  for (let count = 1; count <= segments.length; count += 1) {
    const partial = segments.slice(0, count).join("/");
    let found: ReturnType<typeof lstatSync>;
    try {
      found = lstatSync(join(dir, ...segments.slice(0, count)));
    } catch (error) {
      // ENOTDIR: a component before this one is a file (through a symlink).
      return (error as NodeJS.ErrnoException).code === "ENOTDIR"
        ? `it would need '${segments.slice(0, count - 1).join("/")}' to be a folder, but it is a file in the harness folder`
        : null;
    }
    if (count < segments.length && !found.isDirectory() && !found.isSymbolicLink())
      return `it would need '${partial}' to be a folder, but it is a file in the harness folder`;
    if (count === segments.length && found.isDirectory())
      return "it is a folder in the harness folder, not a file";
  }
  return null;
}

/** Realpath of the longest existing prefix of `target`, with the missing rest appended. */
function realTarget(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    const parent = resolve(target, "..");
    if (parent === target) return target;
    return join(realTarget(parent), relative(parent, target));
  }
}

/** True when `candidate` is `root` or inside it. */
export function isInside(root: string, candidate: string): boolean {
  const difference = relative(root, candidate);
  return (
    difference === "" ||
    (difference !== ".." && !difference.startsWith(`..${sep}`) && !isAbsolute(difference))
  );
}
