/** Patterns of credentials that must never appear in anything Ecdysis renders. */
const secretPatterns: RegExp[] = [
  /sk-[A-Za-z0-9_-]{8,}/g,
  /ghp_[A-Za-z0-9]{16,}/g,
  /gh[osur]_[A-Za-z0-9]{16,}/g,
  /github_pat_[A-Za-z0-9_]{16,}/g,
];

/**
 * Replaces credential-looking strings (`sk-…`, `ghp_…`, `github_pat_…`) and the given secret
 * values (e.g. the API key's env var value) with `***`. Values shorter than 4 characters are
 * ignored (masking them would mangle ordinary text).
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let scrubbed = text;
  for (const secret of [...secrets]
    .filter((value) => value.length >= 4)
    .sort((a, b) => b.length - a.length)) {
    scrubbed = scrubbed.split(secret).join("***");
  }
  for (const pattern of secretPatterns) scrubbed = scrubbed.replace(pattern, "***");
  return scrubbed;
}
