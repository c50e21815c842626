import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** How a command ended: its output (bounded), exit, and whether it was stopped. */
export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  spawnError?: string;
  stdoutOverflow: boolean;
}

/** Stderr kept of a command (its end shows in events). */
const maxStderrBytes = 8 * 1024;
/** Stdout read of a command; more is an error. */
export const maxStdoutBytes = 1024 * 1024;

/**
 * Runs `command` (argv, no shell) in its own process group with `stdin` and reads its output.
 * On timeout or abort the whole group is killed. When the command itself exits, the group is
 * killed too and its pipes are read only a moment longer: a helper it left behind that keeps
 * stdout open (a `setsid` one escapes the group; in the sandbox its PID namespace kills it)
 * does not turn a finished answer into a timeout. An abort rejects with the signal's reason.
 */
export function runProcess(input: {
  command: string[];
  cwd: string;
  stdin: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(input.command[0], input.command.slice(1), {
      cwd: input.cwd,
      env: input.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      shell: false,
    });
    const output = collectOutput(child);
    let timedOut = false;
    let spawnError: string | undefined;
    const killGroup = () => killProcessGroup(child);
    const stopReading = (afterMs: number) => stopReadingAfter(child, afterMs);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      stopReading(1000);
    }, input.timeoutMs);
    const onAbort = () => killGroup();
    input.signal?.addEventListener("abort", onAbort, { once: true });
    if (input.signal?.aborted) onAbort();
    child.stdin.on("error", () => {});
    child.stdin.end(input.stdin);
    child.on("error", (error) => {
      spawnError = error.message;
    });
    child.on("exit", () => {
      killGroup();
      stopReading(250);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", onAbort);
      if (input.signal?.aborted) {
        reject(input.signal.reason);
        return;
      }
      resolve({
        stdout: output.stdout(),
        stderr: output.stderr(),
        exitCode: child.exitCode ?? exitCode,
        signal: child.signalCode ?? signal,
        timedOut,
        spawnError,
        stdoutOverflow: output.stdoutOverflow(),
      });
    });
  });
}

/** Stops waiting, after `afterMs`, for pipes a descendant outside the group may hold open. */
function stopReadingAfter(child: ChildProcessWithoutNullStreams, afterMs: number): void {
  setTimeout(() => {
    child.stdout.destroy();
    child.stderr.destroy();
  }, afterMs).unref();
}

/** Kills the child's whole process group (the child alone if the group is gone). */
function killProcessGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** Collects the child's stdout (up to `maxStdoutBytes`) and stderr (up to `maxStderrBytes`). */
function collectOutput(child: ChildProcessWithoutNullStreams): {
  stdout(): string;
  stderr(): string;
  stdoutOverflow(): boolean;
} {
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdoutBytes += chunk.byteLength;
    if (stdoutBytes <= maxStdoutBytes) stdout.push(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < maxStderrBytes)
      stderr = (stderr + chunk.toString("utf8")).slice(0, maxStderrBytes);
  });
  return {
    stdout: () => Buffer.concat(stdout).toString("utf8"),
    stderr: () => stderr,
    stdoutOverflow: () => stdoutBytes > maxStdoutBytes,
  };
}
