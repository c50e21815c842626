import { describe, expect, it } from "vitest";
import { matchGlob } from "./glob.js";

describe("matchGlob", () => {
  it("matches * within one segment only", () => {
    expect(matchGlob("*.md", "rules.md")).toBe(true);
    expect(matchGlob("*.md", "docs/rules.md")).toBe(false);
    expect(matchGlob("*.md", "rules.mdx")).toBe(false);
  });
  it("matches ** across segments, including none", () => {
    expect(matchGlob("**/*.md", "rules.md")).toBe(true);
    expect(matchGlob("**/*.md", "a/b/rules.md")).toBe(true);
    expect(matchGlob("prompts/**", "prompts/a/b.txt")).toBe(true);
    expect(matchGlob("prompts/**", "other/a.txt")).toBe(false);
  });
  it("matches ? as one character and escapes regex metacharacters", () => {
    expect(matchGlob("rule?.md", "rules.md")).toBe(true);
    expect(matchGlob("rule?.md", "rule/.md")).toBe(false);
    expect(matchGlob("a+b.md", "a+b.md")).toBe(true);
    expect(matchGlob("a+b.md", "aab.md")).toBe(false);
  });
});
