import { spawn } from "node:child_process";
import { extname, join } from "node:path";
import { parseDocument } from "yaml";
import type { LoadedHarness } from "./types.js";
import type { HarnessWorkspace } from "./workspace.js";

/** An edited file that no longer parses: the file (harness-relative), and the parser's own words. */
export interface ParseProblem {
  file: string;
  /** `line N: …` where the parser says where; the checker named first (`python3: …`). */
  message: string;
}

/**
 * The external parsers a check may use. `node`: the Node binary (`node --check`; a `.ts` file
 * too when it strips types, Node ≥ 22.18); `python`: `python3` (its `compile`, which is what
 * `py_compile` runs, without writing `__pycache__`), or null where there is none.
 */
export interface ParseCheckers {
  node: string;
  python: string | null;
  /** The Node binary has `module.stripTypeScriptTypes` (Node ≥ 22.13), which parses TypeScript. */
  nodeStripsTypes: boolean;
}

const maxMessage = 600;

/**
 * The files of `candidate` that are new or changed against `parent` and no longer parse, for the
 * file types cheap to check: JSON, YAML, JavaScript (`node --check`, in `folder` — the
 * candidate's own materialised folder, so `.js` is read as a module or a script exactly as it
 * will run), TypeScript where the Node binary can strip types, Python where `python3` exists.
 * Other files, and files the edit did not touch, are not checked (a seed that was already broken
 * is the user's to fix, not a candidate's fault). Empty: nothing is broken.
 */
export async function parseProblems(options: {
  candidate: LoadedHarness;
  parent: LoadedHarness;
  folder: string;
  checkers: ParseCheckers;
}): Promise<ParseProblem[]> {
  const { candidate, parent, folder, checkers } = options;
  const changed = Object.keys(candidate.files)
    .filter((file) => candidate.files[file] !== parent.files[file])
    .sort();
  const problems: ParseProblem[] = [];
  for (const file of changed) {
    const message = await checkFile({ file, text: candidate.files[file], folder, checkers });
    if (message) problems.push({ file, message: message.slice(0, maxMessage) });
  }
  return problems;
}

/** The problems as one reason line a report and the roles can read. */
function parseProblemsReason(problems: ParseProblem[]): string {
  const each = problems.map((problem) => `${problem.file}: ${problem.message}`).join("; ");
  return `the edited files no longer parse (${each}); not run`;
}

async function checkFile(input: {
  file: string;
  text: string;
  folder: string;
  checkers: ParseCheckers;
}): Promise<string | undefined> {
  const { file, text, checkers } = input;
  const extension = extname(file).toLowerCase();
  if (extension === ".json") return jsonProblem(text);
  if (extension === ".yaml" || extension === ".yml") return yamlProblem(text);
  if ([".js", ".mjs", ".cjs"].includes(extension)) {
    const path = join(input.folder, file);
    const result = await runChecker({ command: checkers.node, args: ["--check", path] });
    return result && `node --check: ${nodeMessage(result, path)}`;
  }
  if ([".ts", ".mts", ".cts"].includes(extension) && checkers.nodeStripsTypes) {
    const args = ["--no-warnings", "-e", typescriptParse];
    const result = await runChecker({ command: checkers.node, args, stdin: text });
    return result && `TypeScript: ${result.trim().split("\n")[0]}`;
  }
  if (extension === ".py" && checkers.python) {
    // Isolated (-I): no PYTHON* variables, no user site, no script folder on the path — the
    // candidate's text is only compiled, never imported or run.
    const result = await runChecker({
      command: checkers.python,
      args: ["-I", "-c", pythonCompile, file],
      stdin: text,
    });
    return result && `python3: ${result.trim().split("\n").at(-1)}`;
  }
  return undefined;
}

function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    // Node 20 says where as `at position N`; the line is what a person looks for.
    const position = Number(/at position (\d+)/.exec(message)?.[1]);
    const line = Number.isInteger(position) ? text.slice(0, position).split("\n").length : 0;
    return line > 0 ? `JSON: line ${line}: ${message}` : `JSON: ${message}`;
  }
}

function yamlProblem(text: string): string | undefined {
  const [error] = parseDocument(text, { prettyErrors: false }).errors;
  if (!error) return undefined;
  const line = text.slice(0, error.pos[0]).split("\n").length;
  return `YAML: line ${line}: ${error.message.split("\n")[0]}`;
}

/** TypeScript: Node's own type stripper parses the whole file (stdin) and names a syntax error. */
const typescriptParse = [
  "let source = '';",
  "process.stdin.on('data', (chunk) => (source += chunk));",
  "process.stdin.on('end', () => {",
  "  try { require('node:module').stripTypeScriptTypes(source); }",
  "  catch (error) { console.error(error.message.split('\\n')[0]); process.exit(1); }",
  "});",
].join("\n");

/** Python: compile the source read from stdin under its harness path; print `line N: Error: msg`. */
const pythonCompile = [
  "import sys",
  "source = sys.stdin.read()",
  "try:",
  "    compile(source, sys.argv[1], 'exec', dont_inherit=True)",
  "except SyntaxError as error:",
  "    print(f'line {error.lineno}: {type(error).__name__}: {error.msg}', file=sys.stderr)",
  "    sys.exit(1)",
].join("\n");

/** `node --check` prints `path:line`, the source line, a caret, then `SyntaxError: …`. */
function nodeMessage(stderr: string, path: string): string {
  const lines = stderr.split("\n");
  const line = new RegExp(`${escapeRegExp(path)}:(\\d+)`).exec(stderr)?.[1];
  const error = lines.find((text) => /^\w*Error\b/.test(text)) ?? lines.find(Boolean) ?? stderr;
  return `${line ? `line ${line}: ` : ""}${error.trim()}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Runs a checker; undefined when it exits 0, else its stderr (or why it could not run). */
function runChecker(input: {
  command: string;
  args: string[];
  stdin?: string;
}): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(input.command, input.args, { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString("utf8");
    });
    // A checker that cannot start says nothing about the file: it is not a parse error.
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => resolve(code === 0 ? undefined : stderr || `exit code ${code}`));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input.stdin ?? "");
  });
}

/**
 * The checkers of this machine: this Node binary, and `python3` when `python3 --version` runs
 * (probed once per call; pass the result on).
 */
export async function localParseCheckers(): Promise<ParseCheckers> {
  const python = await new Promise<boolean>((resolve) => {
    const child = spawn("python3", ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
  const nodeModule = (await import("node:module")) as { stripTypeScriptTypes?: unknown };
  return {
    node: process.execPath,
    python: python ? "python3" : null,
    nodeStripsTypes: typeof nodeModule.stripTypeScriptTypes === "function",
  };
}

/**
 * The parse check of a run's command-harness candidates, against their parent, in the folder
 * each runs from (`workspace`): the reason a candidate may not run, or undefined. The checkers
 * are looked up once, on first use.
 */
export function candidateParseCheck(
  workspace: HarnessWorkspace,
): (input: { candidate: LoadedHarness; parent: LoadedHarness }) => Promise<string | undefined> {
  let checkers: Promise<ParseCheckers> | undefined;
  return async ({ candidate, parent }) => {
    checkers ??= localParseCheckers();
    const folder = await workspace.folderOf(candidate);
    const problems = await parseProblems({ candidate, parent, folder, checkers: await checkers });
    return problems.length > 0 ? parseProblemsReason(problems) : undefined;
  };
}
