import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../main.js";
import { bundledEntry } from "./bundle-entry.js";

/** Root of the checkout. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Test helper: runs the CLI in-process with captured streams. */
export async function runCli(
  argv: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { CI: "true", ...options.env },
    cwd: options.cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/**
 * Test helper: runs `src/cli.ts` as a child process (the real entry, real exit code), bundled
 * once per test process (`bundledEntry`). One process, no wrapper, so `onStart` can kill the very
 * process doing the work.
 */
export function spawnCli(
  argv: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    onStart?: (child: ReturnType<typeof spawn>) => void;
  },
): Promise<CliRun & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundledEntry(repoRoot, "src/cli.ts"), ...argv], {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        CI: "true",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
    options.onStart?.(child);
  });
}
