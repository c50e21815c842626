/**
 * Minimal glob matcher for relative POSIX paths: `*` matches within one segment, `**` matches
 * any number of whole segments (including none), `?` matches one non-slash character.
 */
export function matchGlob(pattern: string, path: string): boolean {
  return globToRegExp(pattern).test(path);
}

const cache = new Map<string, RegExp>();

/** Compiles a glob into an anchored regular expression (memoised). */
export function globToRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let source = "";
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === "*" && pattern[index + 1] === "*") {
      const atSegmentStart = index === 0 || pattern[index - 1] === "/";
      const followedBySlash = pattern[index + 2] === "/";
      if (atSegmentStart && followedBySlash) {
        source += "(?:[^/]+/)*";
        index += 3;
        continue;
      }
      source += ".*";
      index += 2;
      continue;
    }
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    index += 1;
  }
  const compiled = new RegExp(`^${source}$`);
  cache.set(pattern, compiled);
  return compiled;
}
