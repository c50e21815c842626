import { spawn } from "node:child_process";
import { failed, passed, type Scorer } from "./scorer.js";
import { ScorerError } from "./scorer-error.js";

/**
 * `command`: runs the user's scoring command (from the trusted config) with `/bin/sh -c` in the
 * config folder. The task and the output arrive as one JSON object on stdin — never interpolated
 * into the command line. Exit 0 = pass, exit 1 = fail; anything else — another exit code (a
 * missing script is 127 or 2), a signal, a timeout, a command that cannot start, or an exit 1
 * with stderr and nothing on stdout (an uncaught exception) — is a {@link ScorerError}, thrown:
 * the evaluation stops rather than score every task wrong (docs/scorers.md).
 */
export function commandScorer(
  spec: { command: string; timeoutMs: number },
  context: { root: string },
): Scorer {
  return {
    async score(task, output) {
      const payload = JSON.stringify({ task, output: output.output, answer: output.answer });
      const outcome = await runWithStdin({
        command: spec.command,
        cwd: context.root,
        stdin: payload,
        timeoutMs: spec.timeoutMs,
      });
      const fail = (problem: string) => new ScorerError(spec.command, problem, outcome.stderr);
      if (outcome.kind === "error") throw fail(outcome.detail);
      if (outcome.code === 0) return passed();
      if (outcome.code !== 1) throw fail(`exit ${outcome.code} (0 is pass, 1 is fail)`);
      if (outcome.stderr.trim() !== "" && outcome.stdout.trim() === "")
        throw fail("exit 1 with stderr and nothing on stdout (a crash, not a verdict)");
      return failed("wrong-answer");
    },
  };
}

type Outcome = ({ kind: "exit"; code: number } | { kind: "error"; detail: string }) & {
  stdout: string;
  stderr: string;
};

/** Most of a stream kept (a verdict needs little; a traceback's end says what went wrong). */
const maxStreamChars = 4_000;

function runWithStdin(options: {
  command: string;
  cwd: string;
  stdin: string;
  timeoutMs: number;
}): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", options.command], {
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const streams = { stdout: "", stderr: "" };
    const keep = (name: "stdout" | "stderr") => (chunk: Buffer) => {
      streams[name] = (streams[name] + chunk.toString("utf8")).slice(-maxStreamChars);
    };
    child.stdout.on("data", keep("stdout"));
    child.stderr.on("data", keep("stderr"));
    let settled = false;
    const finish = (
      outcome: { kind: "exit"; code: number } | { kind: "error"; detail: string },
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, ...streams });
    };
    const timer = setTimeout(() => {
      // The shell may have children: kill the whole process group.
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      finish({ kind: "error", detail: `no verdict within ${options.timeoutMs} ms (timeoutMs)` });
    }, options.timeoutMs);
    child.on("error", (error) => finish({ kind: "error", detail: error.message }));
    child.on("close", (code, signal) =>
      finish(
        code === null ? { kind: "error", detail: `killed by ${signal}` } : { kind: "exit", code },
      ),
    );
    // A scorer that exits without reading stdin is fine; ignore EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);
  });
}
