/**
 * Removes a secret from text meant for people (error messages, logs), along with any bearer
 * token a server may echo back.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  let result = text;
  if (secret && secret.length >= 4) result = result.split(secret).join("[redacted]");
  return result.replace(/(Bearer\s+)[^\s"',]+/gi, "$1[redacted]");
}
