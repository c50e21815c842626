/**
 * Portable path limits for files an edit creates. A harness is committed to git and checked out
 * on Linux, macOS and Windows, and written under the output folder on every run: a name one of
 * them cannot hold would fail at writing (ENAMETOOLONG) on every resume, or break a checkout.
 */

/** Longest path segment in bytes (NAME_MAX on ext4, APFS and NTFS alike). */
const maxSegmentBytes = 255;
/** Longest harness-relative path in bytes (leaves room under macOS's 1024-byte PATH_MAX). */
const maxPathBytes = 512;
/** Deepest harness-relative path, in segments. */
const maxPathSegments = 16;

/** Names Windows reserves in every folder, with any extension. */
const reservedNames = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
/** The POSIX portable filename characters. */
const portableSegment = /^[A-Za-z0-9._-]+$/;

/**
 * Why a new harness-relative path (already normalised: no `.`, `..`, empty segments or
 * backslashes) would not be portable, or null: a segment over 255 bytes, the whole path over
 * 512 bytes or 16 segments, a character outside `A-Z a-z 0-9 . _ -`, a Windows reserved name,
 * or a segment ending in a dot. `existing` paths are compared case-insensitively: a new
 * `Rules.md` beside `rules.md` is one file on macOS and Windows.
 */
export function portablePathProblem(path: string, existing: readonly string[] = []): string | null {
  const bytes = Buffer.byteLength(path);
  if (bytes > maxPathBytes) return `path is ${bytes} bytes; at most ${maxPathBytes} allowed`;
  const segments = path.split("/");
  if (segments.length > maxPathSegments)
    return `path has ${segments.length} segments; at most ${maxPathSegments} allowed`;
  for (const segment of segments) {
    const length = Buffer.byteLength(segment);
    if (length > maxSegmentBytes)
      return `a path segment is ${length} bytes; at most ${maxSegmentBytes} bytes allowed`;
    if (!portableSegment.test(segment))
      return "a new file's path may only use the portable characters A-Z a-z 0-9 . _ -";
    if (reservedNames.test(segment)) return `'${segment}' is a reserved file name on Windows`;
    if (segment.endsWith(".")) return "a path segment may not end with a dot";
  }
  const folded = path.toLowerCase();
  const twin = existing.find((other) => other !== path && other.toLowerCase() === folded);
  if (twin) return `it differs from the existing '${twin}' only in case`;
  return fileFolderClash(path, existing);
}

/**
 * Why a new file at `path` could not sit beside the `existing` files: a file where the path
 * needs a folder (`rules.md/notes.md` when `rules.md` is a file), or a folder where the path
 * would be a file (`docs` when `docs/guide.md` exists). Writing it would fail (EEXIST, EISDIR)
 * on this run and on every resume. Compared case-insensitively, like case twins.
 */
function fileFolderClash(path: string, existing: readonly string[]): string | null {
  const folded = path.toLowerCase();
  const files = new Set(existing.map((other) => other.toLowerCase()));
  const segments = folded.split("/");
  for (let count = 1; count < segments.length; count += 1) {
    const folder = segments.slice(0, count).join("/");
    if (files.has(folder))
      return `it would need '${path.split("/").slice(0, count).join("/")}' to be a folder, but that is a file of the harness`;
  }
  const inside = existing.find((other) => other.toLowerCase().startsWith(`${folded}/`));
  if (inside) return `it is a folder of the harness (it holds '${inside}'), not a file`;
  return null;
}
