import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Code a newcomer reads in an afternoon: no function in src/ (tests aside; test doubles under
// testing/ included) spans more than 60 lines, signature and body included, and no file more
// than 300 lines. Orchestrators grow first; this is where they would.

const srcDir = dirname(fileURLToPath(import.meta.url));
const maxFileLines = 300;
const maxLines = 60;

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.includes(".test."),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every function of a file with its first line and its length in lines. */
function functionsOf(file: string, text: string): { name: string; line: number; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
      const parent = node.parent;
      const assigned =
        parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
          ? parent.name.getText(source)
          : undefined;
      found.push({
        name: named ?? assigned ?? "(anonymous)",
        line: start + 1,
        lines: end - start + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("src/", () => {
  it(`has no function over ${maxLines} lines`, async () => {
    const long: string[] = [];
    let count = 0;
    for (const file of await sourceFiles()) {
      for (const fn of functionsOf(file, await readFile(file, "utf8"))) {
        count += 1;
        if (fn.lines > maxLines)
          long.push(`${relative(srcDir, file)}:${fn.line} ${fn.name} (${fn.lines} lines)`);
      }
    }
    expect(count).toBeGreaterThan(1000);
    expect(long).toEqual([]);
  });

  it(`has no file over ${maxFileLines} lines`, async () => {
    const long: string[] = [];
    for (const file of await sourceFiles()) {
      const lines = (await readFile(file, "utf8")).trimEnd().split("\n").length;
      if (lines > maxFileLines) long.push(`${relative(srcDir, file)} (${lines} lines)`);
    }
    expect(long).toEqual([]);
  });
});
