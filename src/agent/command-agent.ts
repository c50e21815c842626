import { spawn } from "node:child_process";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { harnessConfigSchema } from "../config/harness-schema.js";
import { InputError } from "../errors/input-error.js";
import type { HarnessWorkspace } from "../harness/workspace.js";
import type { ModelGateway } from "../llm/index.js";
import type { ChatProvider } from "../llm/types.js";
import { costOf, type Price } from "../llm/usage-accounting.js";
import { type CommandOutput, parseCommandOutput, tail } from "./command-output.js";
import { extractAnswer } from "./completion.js";
import {
  gatewayEnvironment,
  openGatewayRoute,
  retriedOnInfraError,
  withGatewayTally,
} from "./gateway-access.js";
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

/** Options of `commandAgent`. */
export interface CommandAgentOptions {
  timeoutMs: number;
  /** The project root (the folder of `ecdysis.yml`); the command runs in the harness folder. */
  projectRoot: string;
  /** Where each harness is materialised (one folder per content hash) and run from. */
  workspace: HarnessWorkspace;
  /**
   * The configured harness folder (`harness.dir` of the config): a `../` argv word names a file
   * beside it, whichever folder a harness was loaded from (the gate's head is loaded from
   * another folder and must run the same command). Default: the folder each harness came from.
   */
  harnessHome?: string;
  /** The configured price of a model by name: the tokens the agent reports are priced with it. */
  price?: (model: string) => Price | undefined;
  /**
   * The run's model gateway: each rollout gets its own token on it, in `keyVariable`, and its
   * usage is the gateway's count. Absent: the agent is told the provider's base URL and reports
   * its own usage.
   */
  gateway?: ModelGateway;
  /** The variable the agent reads its key from (`model.apiKeyEnv`, default `OPENAI_API_KEY`). */
  keyVariable?: string;
  /** Every variable a configured model's key is read from: none reaches the agent with a gateway. */
  keyVariables?: readonly string[];
  clock?: AgentClock;
}

/**
 * Adapter for command harnesses: runs `harness.command` (argv, no shell) in the harness's own
 * folder — the workspace's folder of its content hash, so a candidate runs from its own files,
 * never its parent's — with the task JSON (`{id, input, category, sampleIndex, model}` — never
 * `expected`) on stdin, and reads one JSON object `{output, answer?, trace?}` from stdout.
 * Stderr is kept (8 KB); on timeout the whole process group is killed (`timeout` event); a
 * non-zero exit or unusable stdout is a `process-error` event. `projectRoot` (the folder of the
 * config) is exported to the child as ECDYSIS_PROJECT_ROOT, the folder as ECDYSIS_HARNESS_DIR.
 * With a `gateway`, the agent's model is reached through it (`gateway-access.ts`).
 */
export function commandAgent(options: CommandAgentOptions): AgentAdapter {
  const clock = options.clock ?? monotonicClock;
  return {
    usageFromTrace: true,
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
      const folder = await options.workspace.folderOf(harness);
      signal?.throwIfAborted();
      const once = () =>
        runRollout({
          options,
          provider,
          sampleIndex,
          run: {
            command: candidateArgv(command, options.harnessHome ?? harness.dir),
            cwd: folder,
            stdin,
            timeoutMs: options.timeoutMs,
            signal,
          },
        });
      const outcome = await retriedOnInfraError(once, signal);
      const latencyMs = Math.max(0, clock.now() - startedAt);
      return { ...outcome.trace, latencyMs, stderr: outcome.stderr };
    },
  };
}

/**
 * One run of the command for a rollout, through the gateway when there is one (a token of its
 * own, revoked when the process ends; the usage is the gateway's tally).
 */
async function runRollout(input: {
  options: CommandAgentOptions;
  provider: ChatProvider;
  sampleIndex: number;
  run: Omit<Parameters<typeof runProcess>[0], "env">;
}): Promise<{ trace: Omit<Trace, "latencyMs">; stderr: string }> {
  const { options, provider } = input;
  const route = options.gateway
    ? openGatewayRoute(options.gateway, { model: provider.model, sampleIndex: input.sampleIndex })
    : undefined;
  let result: ProcessResult;
  try {
    const base = childEnv({
      provider,
      harnessDir: input.run.cwd,
      projectRoot: options.projectRoot,
    });
    const env = route ? gatewayEnvironment(base, { route, ...options }) : base;
    result = await runProcess({ ...input.run, env });
  } finally {
    await route?.close();
  }
  const trace = toTrace(result, options.price?.(provider.model));
  const counted = route
    ? withGatewayTally(trace, route.tally())
    : { ...trace, usageSource: "agent" as const };
  return { trace: counted, stderr: result.stderr };
}

function toTrace(result: ProcessResult, price: Price | undefined): Omit<Trace, "latencyMs"> {
  const empty = {
    steps: [],
    output: "",
    answer: null,
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
  };
  // An agent error names what happened and ends with the end of stderr (where a traceback names its error).
  const failure = (kind: AgentEvent["kind"], detail: string) => ({
    ...empty,
    events: [{ kind, step: 0, detail: withStderr(detail, result.stderr) }],
  });
  if (result.spawnError) return failure("process-error", `could not start: ${result.spawnError}`);
  if (result.timedOut) return failure("timeout", "killed after the timeout");
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null ? `signal ${result.signal}` : `exit code ${result.exitCode}`;
    return failure("process-error", how);
  }
  if (result.stdoutOverflow)
    return failure("process-error", `stdout exceeded ${maxStdoutBytes} bytes`);
  const parsed = parseCommandOutput(result.stdout);
  if (!parsed.ok) {
    // Stdout that is not JSON at all is most often logging: say where logs go.
    const hint = parsed.reason.startsWith("stdout is not") ? " (logs go to stderr)" : "";
    return failure("process-error", `exit code 0 but ${parsed.reason}${hint}`);
  }
  const { output, answer, trace } = parsed.value;
  const steps = trace?.steps ?? [];
  return {
    steps,
    events: trace?.events ?? [],
    output,
    answer: answer ?? extractAnswer(output, defaultAnswerPattern),
    usage: reportedUsage(trace, price),
  };
}

/** `detail; stderr: <its end>`, within an event's 2000 characters. */
function withStderr(detail: string, stderr: string): string {
  return `${detail}; stderr: ${tail(stderr, Math.max(300, 1900 - detail.length))}`.slice(0, 2000);
}

/**
 * The agent's own spend: the usage it reports (or its steps' tokens, one call per step), priced
 * with the model's configured price; the agent's own `costUsd` only when no price is configured.
 */
function reportedUsage(trace: CommandOutput["trace"], price: Price | undefined): Trace["usage"] {
  const steps = trace?.steps ?? [];
  const usage = trace?.usage;
  const sum = (field: "promptTokens" | "completionTokens") =>
    Math.round(usage?.[field] ?? steps.reduce((total, step) => total + step[field], 0));
  const tokens = { promptTokens: sum("promptTokens"), completionTokens: sum("completionTokens") };
  const priced = price && price.promptPerMTok + price.completionPerMTok > 0;
  return {
    ...tokens,
    llmCalls: Math.round(usage?.llmCalls ?? steps.length),
    costUsd: priced ? costOf(tokens, price) : (usage?.costUsd ?? 0),
  };
}

/**
 * The argv as it runs from a candidate's folder: a word that starts with `../` and leads out of
 * the harness folder (`../.venv/bin/python`) names a file beside the harness, not a harness
 * file, so it is made absolute against the folder the harness was loaded from; everything else
 * (`agent.py`, `./run.sh`, a `../` path back into the harness) is relative to the candidate's
 * own folder, and so its own files.
 */
export function candidateArgv(command: string[], sourceDir: string): string[] {
  return command.map((word) => {
    if (!word.startsWith("../")) return word;
    const target = resolve(sourceDir, word);
    const inside = relative(sourceDir, target);
    if (inside.startsWith("..") || isAbsolute(inside)) return target;
    return `./${inside.split(sep).join("/")}`;
  });
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
    if (input.signal?.aborted) onAbort();
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
