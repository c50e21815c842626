/**
 * Credential shapes that must never reach a prompt, a harness edit, a log, a report or a PR
 * body. One list, used by every stage that handles untrusted or outgoing text.
 */
export const secretPatterns: readonly { name: string; pattern: RegExp }[] = [
  { name: "an OpenAI-style 'sk-' key", pattern: /\bsk-[A-Za-z0-9_-]{12,}/g },
  { name: "a GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{16,}/g },
  { name: "a GitHub fine-grained token", pattern: /\bgithub_pat_[A-Za-z0-9_]{16,}/g },
  { name: "an AWS access key id", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    name: "an AWS secret key",
    pattern: /aws_secret_access_key\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/gi,
  },
  { name: "a Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: "a private key", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g },
];

/** Names the kind of credential `text` contains, or null. */
export function findSecret(text: string): string | null {
  for (const entry of secretPatterns) {
    entry.pattern.lastIndex = 0;
    if (entry.pattern.test(text)) return entry.name;
  }
  return null;
}

/**
 * Replaces credential-shaped strings and the given secret values (e.g. the API key's value;
 * values under 4 characters are ignored, masking them would mangle ordinary text).
 */
export function redactSecrets(
  text: string,
  options: { replacement?: string; values?: readonly string[] } = {},
): string {
  const replacement = options.replacement ?? "***";
  let result = text;
  const values = [...(options.values ?? [])].filter((value) => value.length >= 4);
  for (const value of values.sort((a, b) => b.length - a.length))
    result = result.split(value).join(replacement);
  for (const { pattern } of secretPatterns) result = result.replace(pattern, replacement);
  return result;
}
