/** Longest text kept in trimmed evidence. */
const maxTrimmedChars = 300;

/**
 * Evidence made smaller for a model whose context it did not fit: every list keeps its first half
 * (at least one item), every text past 300 characters is cut — the same shape, so the role reads
 * it as before.
 */
export function trimEvidence(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > maxTrimmedChars ? `${value.slice(0, maxTrimmedChars)}…` : value;
  if (Array.isArray(value))
    return value.slice(0, Math.max(1, Math.ceil(value.length / 2))).map(trimEvidence);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
        key,
        trimEvidence(inner),
      ]),
    );
  return value;
}
