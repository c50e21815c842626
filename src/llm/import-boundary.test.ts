import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = dirname(dirname(fileURLToPath(import.meta.url)));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("openai import boundary", () => {
  it("keeps every import of the openai SDK in shipped code inside src/llm", async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(srcDir)) {
      const path = relative(srcDir, file);
      // Tests may drive the SDK directly (the sim's wire-compatibility tests do); shipped code may not.
      if (path.startsWith("llm/") || /\.test\.[mc]?[tj]s$/.test(path)) continue;
      const text = await readFile(file, "utf8");
      if (/(?:from\s+|import\s*\(\s*|require\s*\(\s*)["']openai(?:\/[^"']*)?["']/.test(text))
        offenders.push(path);
    }
    expect(offenders).toEqual([]);
  });
});
