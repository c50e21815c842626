/**
 * The one canonical JSON of the project: object keys sorted at every level, `undefined` members
 * dropped (`undefined` in an array becomes `null`, as JSON.stringify does). Every cache key,
 * run key and content hash is computed over it, so the same value always hashes the same
 * whatever order its keys were written in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner && typeof inner === "object" && !Array.isArray(inner)) {
      const record = inner as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((key) => [key, record[key]]),
      );
    }
    return inner;
  });
}
