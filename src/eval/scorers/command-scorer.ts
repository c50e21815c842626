import { spawn } from "node:child_process";
import { failed, passed, type Scorer } from "./scorer.js";

/**
 * `command`: runs the user's scoring command (from the trusted config) with `/bin/sh -c` in the
 * config folder. The task and the output arrive as one JSON object on stdin — never interpolated
 * into the command line. Exit 0 = pass, another exit = wrong answer; a timeout or a command that
 * cannot start is a scorer error.
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
      if (outcome.kind === "exit") return outcome.code === 0 ? passed() : failed("wrong-answer");
      return failed("scorer-error");
    },
  };
}

type Outcome = { kind: "exit"; code: number } | { kind: "error"; detail: string };

function runWithStdin(options: {
  command: string;
  cwd: string;
  stdin: string;
  timeoutMs: number;
}): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", options.command], {
      cwd: options.cwd,
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      // The shell may have children: kill the whole process group.
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      finish({ kind: "error", detail: "timeout" });
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
