/**
 * The secret forms a token can leak in: itself, its base64 (git's basic-auth header) and the
 * base64 of `x-access-token:<token>`. Every form is masked in the log and scrubbed from files.
 */
function secretForms(secret: string): string[] {
  const value = secret.trim();
  if (value.length < 4) return [];
  return [
    value,
    Buffer.from(value).toString("base64"),
    Buffer.from(`x-access-token:${value}`).toString("base64"),
    encodeURIComponent(value),
  ].filter((form, index, all) => all.indexOf(form) === index);
}

/** Collects secrets and replaces them in text (the log mask is best effort; files need this). */
export class SecretScrubber {
  private readonly forms: string[] = [];

  /** Register a secret; returns its forms so they can be masked in the log too. */
  add(secret: string | undefined): string[] {
    if (!secret) return [];
    const forms = secretForms(secret);
    for (const form of forms) if (!this.forms.includes(form)) this.forms.push(form);
    this.forms.sort((a, b) => b.length - a.length);
    return forms;
  }

  /** The text with every registered form replaced by `***`. */
  scrub(text: string): string {
    let result = text;
    for (const form of this.forms) result = result.split(form).join("***");
    return result;
  }

  /** True when the text contains any registered form. */
  leaks(text: string): boolean {
    return this.forms.some((form) => text.includes(form));
  }
}

/** Neutralise workflow commands (`::add-mask::`, `::stop-commands::`) in text we log. */
export function neutraliseWorkflowCommands(text: string): string {
  return text.replace(/^(\s*)::/gm, "$1: :");
}
