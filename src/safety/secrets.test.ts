import { describe, expect, it } from "vitest";
import { findSecret, redactSecrets } from "./secrets.js";

describe("secrets", () => {
  it("redacts credential shapes and given values", () => {
    const text = "key sk-abcdefghijklmnop123 token ghp_ABCDEFGHIJKLMNOPQRSTUV and hunter2pass";
    const redacted = redactSecrets(text, { values: ["hunter2pass"] });
    expect(redacted).toBe("key *** token *** and ***");
  });

  it("leaves ordinary words that merely contain a key prefix alone", () => {
    const text = "pattern task-lost-in-context and desk-organisation-rules";
    expect(redactSecrets(text)).toBe(text);
    expect(findSecret(text)).toBeNull();
  });

  it("names the kind of credential it finds, every time it is asked", () => {
    const text = "-----BEGIN RSA PRIVATE KEY-----";
    expect(findSecret(text)).toBe("a private key");
    expect(findSecret(text)).toBe("a private key");
  });
});
