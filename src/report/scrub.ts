import { redactSecrets } from "../safety/secrets.js";

/**
 * Replaces credential-looking strings (`sk-…`, `ghp_…`, `github_pat_…`, …) and the given secret
 * values (e.g. the API key's env var value) with `***`.
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  return redactSecrets(text, { values: secrets });
}
