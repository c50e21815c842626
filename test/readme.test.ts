import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README guides; the reference lives in docs/. It stays short and every link it gives works.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** Relative link targets of a Markdown text, without their #fragment. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"))
    .map((target) => target.split("#")[0]);
}

describe("README.md", () => {
  it("is at most 300 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("links only to files that exist", () => {
    const links = relativeLinks(readme);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((target) => !existsSync(join(root, target)))).toEqual([]);
  });

  it("has a route to evolving your own agent on your own model", () => {
    expect(readme).toMatch(/^## Evolve your own agent on your own model$/m);
    for (const page of ["docs/command-harness.md", "docs/endpoints.md", "docs/action.md"])
      expect(readme).toContain(`](${page})`);
  });
});
