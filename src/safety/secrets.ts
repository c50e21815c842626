import { guardText } from "./guard-text.js";
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

/**
 * What a `SecretRedactor` writes in place of a secret in records. Distinctive on purpose: an
 * edit that carries it was carrying a secret (a proposal is journaled, and so scrubbed, before
 * the guards see it), and the content guards refuse it as one.
 */
export const redactionMarker = "[REDACTED-SECRET]";

/**
 * Configured secret values shorter than this are not treated as secrets: masking or refusing a
 * short common string would mangle ordinary text, and no real API key or token is that short.
 */
const minSecretValueLength = 8;

/**
 * The forms a secret value can leak in: itself, its base64 (HTTP basic auth, git's header),
 * base64 of `x-access-token:<value>`, URL-encoded, and JSON- and HTML-escaped when those differ.
 */
export function secretValueForms(secret: string): string[] {
  const value = secret.trim();
  if (value.length < minSecretValueLength) return [];
  const html = value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
  const forms = [
    value,
    Buffer.from(value).toString("base64"),
    Buffer.from(`x-access-token:${value}`).toString("base64"),
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
    html,
  ];
  return [...new Set(forms)];
}

/**
 * The run's redaction: credential shapes plus the configured secret values (API keys read
 * through `apiKeyEnv`, the GitHub token) in every form they can leak in. Every writer of a
 * record (rollout cache, call cache, records.jsonl, the journal, result.json, reports) passes
 * what it writes through one of these first.
 */
export class SecretRedactor {
  /** The configured values long enough to be secrets (trimmed, deduplicated). */
  readonly values: readonly string[];
  /** Every form of every value, longest first (so a value inside another is masked whole). */
  readonly forms: readonly string[];
  /** The forms as `countValue` compares them: as `guardText` reads them, whitespace removed. */
  private readonly compactForms: readonly string[];

  constructor(
    values: readonly (string | undefined)[] = [],
    private readonly replacement = redactionMarker,
  ) {
    const kept = values.flatMap((value) => {
      const trimmed = value?.trim() ?? "";
      return trimmed.length >= minSecretValueLength ? [trimmed] : [];
    });
    this.values = [...new Set(kept)];
    const forms = this.values.flatMap(secretValueForms);
    this.forms = [...new Set(forms)].sort((a, b) => b.length - a.length);
    this.compactForms = this.forms.map((form) => guardText(form).replace(/\s+/g, ""));
  }

  /** `text` with every secret form and credential shape replaced. */
  text(text: string): string {
    let result = text;
    for (const form of this.forms) result = result.split(form).join(this.replacement);
    return redactSecrets(result, { replacement: this.replacement });
  }

  /** A deep copy of a JSON-like value with every string redacted (keys included). */
  json<T>(value: T): T {
    return redactValue(value, (text) => this.text(text)) as T;
  }

  /**
   * How many times `text` carries a secret value in any form, read with all whitespace removed
   * (so a value split by line breaks or spaces still counts). Callers normalise the text first
   * (`guardText`); each form is compared as `guardText` reads it.
   */
  countValue(text: string): number {
    if (this.forms.length === 0) return 0;
    const compact = text.replace(/\s+/g, "");
    let count = 0;
    for (const form of this.compactForms) count += compact.split(form).length - 1;
    return count;
  }
}

function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value))
      out[redact(key)] = redactValue(member, redact);
    return out;
  }
  return value;
}
