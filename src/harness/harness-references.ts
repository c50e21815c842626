import type { HarnessConfig } from "../config/harness-schema.js";

/** The harness-relative files a built-in config points at, each with the field that names it. */
function referencedFiles(config: HarnessConfig): { field: string; path: string }[] {
  const references = [
    { field: "prompt.system", path: config.prompt.system },
    { field: "prompt.rules", path: config.prompt.rules },
  ];
  if (config.tools.lookup.enabled) {
    config.tools.lookup.files.forEach((path, index) => {
      references.push({ field: `tools.lookup.files.${index}`, path });
    });
  }
  return references;
}

/**
 * The first referenced file that is missing from the harness (or points outside it), as a
 * message naming the field; null when every reference resolves to a loaded file.
 */
export function missingReference(
  config: HarnessConfig,
  files: Record<string, string>,
): { field: string; problem: string } | null {
  for (const reference of referencedFiles(config)) {
    const normalised = normaliseRelative(reference.path);
    if (normalised === null) {
      return {
        field: reference.field,
        problem: `'${reference.path}' must be a relative path inside the harness folder`,
      };
    }
    if (!(normalised in files)) {
      return {
        field: reference.field,
        problem: `file '${reference.path}' does not exist in the harness folder`,
      };
    }
  }
  return null;
}

/** `a/./b` → `a/b`; null for absolute paths, `..` segments, backslashes or NUL. */
export function normaliseRelative(path: string): string | null {
  if (path.includes("\\") || path.includes("\0") || path.startsWith("/") || /^[A-Za-z]:/.test(path))
    return null;
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.length === 0 || segments.includes("..")) return null;
  return segments.join("/");
}

/** The text of a harness file named by a config field (normalised like `./rules.md`), or undefined. */
export function harnessFile(files: Record<string, string>, path: string): string | undefined {
  const normalised = normaliseRelative(path);
  return normalised === null ? undefined : files[normalised];
}
