import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The stage order of src/README.md, as a test. Data flows one way: a folder may import the
// folders before it, never one after it, and no two folders may import each other (directly or
// round a longer loop). errors/ and safety/ are shared leaves: every folder may import them and
// they import no other folder. Test files (*.test.ts) are exempt: they may drive any stage (the
// sim is the engine of the test suite); test doubles under testing/ are not.

const srcDir = dirname(fileURLToPath(import.meta.url));

/** The pipeline, first to last; bench and cli sit on top (cli may run the bench). */
const order = [
  "config",
  "llm",
  "sim",
  "harness",
  "agent",
  "eval",
  "diagnose",
  "refine",
  "evolve",
  "report",
  "github",
  "bench",
  "cli",
] as const;
const leaves = ["errors", "safety"];
/**
 * The edges that may wire the simulated model in (the sim is the engine of the demo, the bench
 * and the tests, never a dependency of the pipeline): every core stage runs on the endpoints it is
 * handed (`openModels`'s `simServer`).
 */
const simEdges = ["cli", "bench", "github"];

/** One import between two folders of src/. */
interface FolderImport {
  from: string;
  to: string;
  /** The importing file, relative to src/. */
  file: string;
}

/** Folder of a file relative to src/: its first segment (`cli.ts` at the root is `cli`). */
function folderOf(relativePath: string): string {
  const [first, ...rest] = relativePath.split(sep);
  return rest.length === 0 ? first.replace(/\.[mc]?ts$/, "") : first;
}

const relativeImport = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
const packageImport = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^."'][^"']*)["']/g;

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.[mc]?ts$/.test(entry.name))
    .map((entry) => relative(srcDir, join(entry.parentPath, entry.name)));
}

function isTest(file: string): boolean {
  return /\.test\.[mc]?ts$/.test(file);
}

/** Every import of one src/ folder by another, read from the source text. */
async function folderImports(): Promise<FolderImport[]> {
  const imports: FolderImport[] = [];
  for (const file of await sourceFiles()) {
    if (isTest(file)) continue;
    const text = await readFile(join(srcDir, file), "utf8");
    for (const match of text.matchAll(relativeImport)) {
      const target = relative(srcDir, resolve(srcDir, dirname(file), match[1]));
      if (target.startsWith("..")) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) imports.push({ from, to, file });
    }
  }
  return imports;
}

/** Imports against the order: a later stage imported by an earlier one, or a leaf importing a folder. */
function againstOrder(imports: FolderImport[]): string[] {
  const rank = (folder: string) => (order as readonly string[]).indexOf(folder);
  return imports
    .filter(({ from, to }) => {
      if (leaves.includes(to)) return false;
      if (leaves.includes(from)) return true;
      return rank(from) < 0 || rank(to) < 0 || rank(to) > rank(from);
    })
    .map(({ from, to, file }) => `${from} → ${to} (${file})`);
}

/** Imports of src/sim by a folder other than the edges (`simEdges`). */
function coreSimImports(imports: FolderImport[]): string[] {
  return imports
    .filter(({ from, to }) => to === "sim" && from !== "sim" && !simEdges.includes(from))
    .map(({ from, to, file }) => `${from} → ${to} (${file})`);
}

/** Folder cycles, each as `a → b → … → a`, found by a depth-first search of the folder graph. */
function folderCycles(imports: FolderImport[]): string[] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const targets = graph.get(from) ?? new Set<string>();
    targets.add(to);
    graph.set(from, targets);
  }
  const cycles = new Set<string>();
  const walk = (folder: string, path: string[]) => {
    for (const next of graph.get(folder) ?? []) {
      const start = path.indexOf(next);
      if (start >= 0) {
        const loop = path.slice(start);
        // One spelling per cycle: rotated to start at its smallest folder name.
        const first = loop.indexOf([...loop].sort()[0]);
        const rotated = [...loop.slice(first), ...loop.slice(0, first)];
        cycles.add([...rotated, rotated[0]].join(" → "));
      } else walk(next, [...path, next]);
    }
  };
  for (const folder of graph.keys()) walk(folder, [folder]);
  return [...cycles].sort();
}

describe("stage order", () => {
  it("finds imports against the order and folder cycles in a hand-built graph", () => {
    const imports = [
      { from: "config", to: "sim", file: "config/load-config.ts" },
      { from: "sim", to: "config", file: "sim/load-world.ts" },
      { from: "evolve", to: "errors", file: "evolve/journal.ts" },
      { from: "errors", to: "config", file: "errors/x.ts" },
      { from: "cli", to: "bench", file: "cli/bench-command.ts" },
    ];
    expect(againstOrder(imports)).toEqual([
      "config → sim (config/load-config.ts)",
      "errors → config (errors/x.ts)",
    ]);
    expect(folderCycles(imports)).toEqual(["config → sim → config"]);
    expect(
      coreSimImports([
        ...imports,
        { from: "eval", to: "sim", file: "eval/open-models.ts" },
        { from: "bench", to: "sim", file: "bench/sim-engine.ts" },
        { from: "github", to: "sim", file: "github/real-engine.ts" },
      ]),
    ).toEqual(["config → sim (config/load-config.ts)", "eval → sim (eval/open-models.ts)"]);
  });

  it("every import of src/ follows config → llm → sim → harness → agent → eval → diagnose → refine → evolve → report → github (bench, cli on top)", async () => {
    const imports = await folderImports();
    expect(imports.length).toBeGreaterThan(50);
    expect(againstOrder(imports)).toEqual([]);
  });

  it("no core stage imports src/sim: only the CLI, the bench and the Action wire the sim in", async () => {
    expect(coreSimImports(await folderImports())).toEqual([]);
  });

  it("no two folders of src/ import each other, directly or round a loop", async () => {
    expect(folderCycles(await folderImports())).toEqual([]);
  });

  it("only src/github imports @actions/* or @octokit/* (tests included)", async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles()) {
      if (folderOf(file) === "github") continue;
      const text = await readFile(join(srcDir, file), "utf8");
      for (const match of text.matchAll(packageImport))
        if (/^@(actions|octokit)\//.test(match[1])) offenders.push(`${file}: ${match[1]}`);
    }
    expect(offenders).toEqual([]);
  });
});
