import { spawn } from "node:child_process";
import { harnessConfigSchema } from "../config/harness-schema.js";
import { InputError } from "../errors/input-error.js";
import type { ChatProvider } from "../llm/types.js";
import { excerpt, parseCommandOutput } from "./command-output.js";
import { extractAnswer } from "./completion.js";
import { type AgentClock, monotonicClock } from "./trace-recorder.js";
import type { AgentAdapter, AgentEvent, Trace } from "./types.js";

const maxStderrBytes = 8 * 1024;
const maxStdoutBytes = 1024 * 1024;
const defaultAnswerPattern = harnessConfigSchema.parse({}).completion.answer_pattern;

interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  spawnError?: string;
  stdoutOverflow: boolean;
}

/**
 * Adapter for command harnesses: runs `harness.command` (argv, no shell) in the harness folder
 * with the task JSON (`{id, input, category, sampleIndex, model}` — never `expected`) on stdin
 * and reads one JSON object `{output, answer?, trace?}` from stdout. Stderr is kept (8 KB); on
 * timeout the whole process group is killed (`timeout` event); a non-zero exit or unusable
 * stdout is a `process-error` event. `projectRoot` (the folder of the config) is exported to the
 * child as ECDYSIS_PROJECT_ROOT.
 */
export function commandAgent(options: {
  timeoutMs: number;
  /** The project root (the folder of `ecdysis.yml`); the command runs in the harness folder. */
  projectRoot: string;
  clock?: AgentClock;
}): AgentAdapter {
  const clock = options.clock ?? monotonicClock;
  return {
    async run({ task, harness, provider, sampleIndex, signal }): Promise<Trace> {
      const command = harness.command;
      if (harness.kind !== "command" || !command || command.length === 0) {
        throw new InputError(
          harness.dir,
          "the command agent needs a command harness with a command argv",
          { field: "harness.command" },
        );
      }
      // An abort that came before the start must not run the command to its end first.
      signal?.throwIfAborted();
      const startedAt = clock.now();
      const stdin = JSON.stringify({
        id: task.id,
        input: task.input,
        category: task.category,
        sampleIndex,
        model: provider.model,
      });
      const env = childEnv({ provider, harnessDir: harness.dir, projectRoot: options.projectRoot });
      const result = await runProcess({
        command,
        cwd: harness.dir,
        stdin,
        env,
        timeoutMs: options.timeoutMs,
        signal,
      });
      const trace = toTrace(result);
      return { ...trace, latencyMs: Math.max(0, clock.now() - startedAt), stderr: result.stderr };
    },
  };
}

function toTrace(result: ProcessResult): Omit<Trace, "latencyMs"> {
  const empty = {
    steps: [],
    output: "",
    answer: null,
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
  };
  const failure = (kind: AgentEvent["kind"], detail: string) => ({
    ...empty,
    events: [{ kind, step: 0, detail: detail.slice(0, 2000) }],
  });
  if (result.spawnError) return failure("process-error", `could not start: ${result.spawnError}`);
  if (result.timedOut)
    return failure("timeout", `killed after the timeout; stderr: ${excerpt(result.stderr)}`);
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null ? `signal ${result.signal}` : `exit code ${result.exitCode}`;
    return failure("process-error", `${how}; stderr: ${excerpt(result.stderr)}`);
  }
  if (result.stdoutOverflow)
    return failure("process-error", `stdout exceeded ${maxStdoutBytes} bytes`);
  const parsed = parseCommandOutput(result.stdout);
  if (!parsed.ok)
    return failure(
      "process-error",
      `exit code 0 but ${parsed.reason}; stderr: ${excerpt(result.stderr)}`,
    );
  const { output, answer, trace } = parsed.value;
  return {
    steps: trace?.steps ?? [],
    events: trace?.events ?? [],
    output,
    answer: answer ?? extractAnswer(output, defaultAnswerPattern),
    usage: {
      promptTokens: trace?.usage?.promptTokens ?? 0,
      completionTokens: trace?.usage?.completionTokens ?? 0,
      llmCalls: trace?.usage?.llmCalls ?? 0,
      costUsd: trace?.usage?.costUsd ?? 0,
    },
  };
}

/**
 * Variables a harness command never gets: the Actions runtime's and the GitHub token's, and every
 * action input (`INPUT_*` carries github-token). The command runs files the refiner may have
 * written; it needs the model's key (kept), not the repository's.
 */
const withheld = /^(INPUT_.*|ACTIONS_.*|GITHUB_TOKEN|GH_TOKEN|GH_ENTERPRISE_TOKEN|GITHUB_PAT)$/i;

/** The environment without the variables a harness command must not see. */
export function harnessEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !withheld.test(name)));
}

/** The child's environment: the parent's less the withheld variables, plus the endpoint when the provider exposes it. */
function childEnv(input: {
  provider: ChatProvider;
  harnessDir: string;
  projectRoot: string;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...harnessEnvironment(process.env),
    ECDYSIS_MODEL: input.provider.model,
    ECDYSIS_HARNESS_DIR: input.harnessDir,
    ECDYSIS_PROJECT_ROOT: input.projectRoot,
  };
  // The key is not passed on: the command reads it from the variable its config names (kept).
  if (input.provider.baseUrl) {
    env.ECDYSIS_BASE_URL = input.provider.baseUrl;
    env.OPENAI_BASE_URL = input.provider.baseUrl;
  }
  return env;
}

function runProcess(input: {
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
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let timedOut = false;
    let spawnError: string | undefined;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      // A descendant that left the group could hold the pipes open; stop waiting for them.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 1000).unref();
    }, input.timeoutMs);
    const onAbort = () => killGroup();
    input.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.byteLength;
      if (stdoutBytes <= maxStdoutBytes) stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < maxStderrBytes)
        stderr = (stderr + chunk.toString("utf8")).slice(0, maxStderrBytes);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input.stdin);
    child.on("error", (error) => {
      spawnError = error.message;
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", onAbort);
      if (input.signal?.aborted) {
        reject(input.signal.reason);
        return;
      }
      resolve({
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr,
        exitCode,
        signal,
        timedOut,
        spawnError,
        stdoutOverflow: stdoutBytes > maxStdoutBytes,
      });
    });
  });
}
