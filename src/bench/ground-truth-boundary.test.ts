import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The sim's ground truth (which deficiency hits which task, key phrases, answers) and the world
// generator that produces it are for src/bench — the only scorer — and the sim itself. Nothing
// else may import them: a pipeline stage that could read them could score itself, and a refiner
// fed from them would be told the answers. See src/sim/world-generator.ts.

const root = path.resolve(import.meta.dirname, "..", "..");
const scanned = ["src", "test", "bench", "scripts"];
/** Folders whose files may import the ground truth: the bench (its core and its scripts) and the sim. */
const allowedFolders = ["src/bench", "bench", "src/sim"];
/** Test files outside them that assert on ground truth, each with the reason it may. */
const allowedTests: Record<string, string> = {
  "src/evolve/evolve.int.test.ts":
    "asserts that the evolve loop on the real sim makes no accommodation; a test, never the pipeline",
  "test/reliability/near-duplicate-splits.test.ts":
    "generates worlds to check that no held-out input is a near copy of a train input; a test of the guards",
};
/** Modules of src/sim that hold or produce ground truth, or play the refiner from it. */
const groundTruthModules = [
  /^src\/sim\/world-generator\.ts$/,
  /^src\/sim\/task-generation\.ts$/,
  /^src\/sim\/ground-truth-log\.ts$/,
  /^src\/sim\/refiner\//,
  /^src\/sim\/families\//,
];
/** Names that must not be reachable through src/sim's public index. */
const groundTruthNames = [
  "generateWorld",
  "generateWorldWithTruth",
  "GeneratedWorld",
  "TaskTruth",
  "TaskDeficiency",
  "groundTruthKey",
  "GroundTruthEntry",
  "GroundTruthLog",
  "diagnosisAccuracy",
  "recognise",
];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(relative)));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) files.push(relative);
  }
  return files;
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s+["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /^\s*import\s+["']([^"']+)["']/gm,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The repository-relative source file a relative specifier names (`.js` → `.ts`). */
function resolve(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return target.replace(/\.js$/, ".ts");
}

describe("the sim's ground truth boundary", () => {
  it("is imported by nothing outside src/bench and src/sim", async () => {
    const offenders: string[] = [];
    for (const dir of scanned) {
      for (const file of await sourceFiles(dir)) {
        if (allowedFolders.some((folder) => file.startsWith(`${folder}/`))) continue;
        if (file in allowedTests) continue;
        const text = await readFile(path.join(root, file), "utf8");
        for (const specifier of specifiers(text)) {
          const target = resolve(file, specifier);
          if (target && groundTruthModules.some((pattern) => pattern.test(target)))
            offenders.push(`${file} imports ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("is not re-exported by src/sim's public index", async () => {
    const index = await readFile(path.join(root, "src/sim/index.ts"), "utf8");
    const exported = groundTruthNames.filter((name) => new RegExp(`\\b${name}\\b`).test(index));
    expect(exported).toEqual([]);
    for (const specifier of specifiers(index)) {
      const target = resolve("src/sim/index.ts", specifier) ?? "";
      expect(
        groundTruthModules.some((pattern) => pattern.test(target)),
        specifier,
      ).toBe(false);
    }
  });

  it("would catch an offender (the scan reads real import lines)", () => {
    const line = 'import { generateWorldWithTruth } from "../sim/world-generator.js";';
    const target = resolve("src/evolve/x.ts", specifiers(line)[0]);
    expect(target).toBe("src/sim/world-generator.ts");
    expect(groundTruthModules.some((pattern) => pattern.test(target ?? ""))).toBe(true);
    expect(specifiers('const m = await import("../sim/refiner/fixes.js");')).toEqual([
      "../sim/refiner/fixes.js",
    ]);
  });

  it("lists only allowed test files that exist and are tests", async () => {
    for (const file of Object.keys(allowedTests)) {
      expect(file).toMatch(/\.test\.ts$/);
      const text = await readFile(path.join(root, file), "utf8");
      const targets = specifiers(text).map((specifier) => resolve(file, specifier) ?? "");
      expect(
        targets.some((target) => groundTruthModules.some((pattern) => pattern.test(target))),
        `${file} no longer imports the ground truth: drop it from allowedTests`,
      ).toBe(true);
    }
  });
});
