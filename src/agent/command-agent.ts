import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { harnessConfigSchema } from "../config/harness-schema.js";
import { InputError } from "../errors/input-error.js";
import type { HarnessWorkspace } from "../harness/workspace.js";
import type { ChatProvider } from "../llm/types.js";
import { costOf, type Price } from "../llm/usage-accounting.js";
import { agentEnvironment } from "./agent-environment.js";
import { type CommandOutput, parseCommandOutput, tail } from "./command-output.js";
import { extractAnswer } from "./completion.js";
import { directModelAccess, type ModelAccess, type ModelRoute } from "./model-access.js";
import { maxStdoutBytes, type ProcessResult, runProcess } from "./run-process.js";
import type { AgentSandbox } from "./sandbox/agent-sandbox.js";
import { insideHome } from "./sandbox/bwrap-args.js";
import { type AgentClock, monotonicClock } from "./trace-recorder.js";
import type { AgentAdapter, AgentEvent, Trace } from "./types.js";

const defaultAnswerPattern = harnessConfigSchema.parse({}).completion.answer_pattern;

/** The model key's variable for the agent, and the parent's variable it is read from per model. */
export interface AgentKeyVariables {
  /** The variable the agent reads (`model.apiKeyEnv`, else `OPENAI_API_KEY`). */
  variable: string;
  /** The parent's variable holding the key of the model a rollout uses (the probe's may differ). */
  from(model: string): string;
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
  /** The OS sandbox every process of the command runs in; absent: none (`harness.sandbox: off`). */
  sandbox?: AgentSandbox;
  /** How the agent reaches its model (default: the provider's base URL, relayed into the sandbox). */
  modelAccess?: ModelAccess;
  /** The key variable (default: `OPENAI_API_KEY`, read from the same name). */
  key?: AgentKeyVariables;
  /** `harness.env`: names of further variables the agent is given. */
  passEnv?: readonly string[];
  clock?: AgentClock;
}

/**
 * Adapter for command harnesses: runs `harness.command` (argv, no shell) in the harness's own
 * folder — the workspace's folder of its content hash, so a candidate runs from its own files,
 * never its parent's — with the task JSON (`{id, input, category, sampleIndex, model}` — never
 * `expected`) on stdin, and reads one JSON object `{output, answer?, trace?}` from stdout.
 * Every process of it runs in `sandbox` when given. Its environment is an allowlist
 * (`agentEnvironment`) with a private HOME and TMPDIR. Stderr is kept (8 KB); on timeout the
 * whole tree is killed (`timeout` event); a non-zero exit or unusable stdout is a
 * `process-error` event.
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
      const argv = candidateArgv(command, options.harnessHome ?? harness.dir);
      const result = await withScratch(async (scratch) => {
        const access = options.modelAccess ?? directModelAccess;
        const route = await access.open({ provider, sandboxed: !!options.sandbox, scratch });
        try {
          const env = await rolloutEnvironment({ options, route, provider, folder, scratch });
          const spawned = options.sandbox
            ? await options.sandbox.wrap({
                argv,
                cwd: folder,
                path: env.PATH,
                network: route.relay,
              })
            : argv;
          const run = { command: spawned, cwd: folder, stdin, env, timeoutMs: options.timeoutMs };
          return startFailure(await runProcess({ ...run, signal }), !!options.sandbox);
        } finally {
          await route.close();
        }
      });
      const trace = toTrace(result, options.price?.(provider.model));
      return { ...trace, latencyMs: Math.max(0, clock.now() - startedAt), stderr: result.stderr };
    },
  };
}

/** Runs `body` with a private host folder of its own (0700), removed when it ends. */
async function withScratch<T>(body: (scratch: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(tmpdir(), "ecdysis-rollout-"));
  try {
    return await body(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The rollout's environment: sandboxed, home and temp are the sandbox's own; else folders of the scratch. */
async function rolloutEnvironment(input: {
  options: CommandAgentOptions;
  route: ModelRoute;
  provider: ChatProvider;
  folder: string;
  scratch: string;
}): Promise<Record<string, string>> {
  const { options, route, scratch } = input;
  const home = options.sandbox ? insideHome : join(scratch, "home");
  const temp = options.sandbox ? "/tmp" : join(scratch, "tmp");
  if (!options.sandbox) await Promise.all([mkdir(home), mkdir(temp)]);
  const key = options.key ?? { variable: "OPENAI_API_KEY", from: () => "OPENAI_API_KEY" };
  return agentEnvironment({
    parent: process.env,
    model: {
      name: input.provider.model,
      baseUrl: route.baseUrl,
      keyVariable: key.variable,
      key: route.key,
      keyFrom: key.from(input.provider.model),
    },
    harnessDir: input.folder,
    projectRoot: options.projectRoot,
    home,
    tmpdir: temp,
    pass: options.passEnv,
  });
}

/** A sandboxed command that could not start says so on stderr (bubblewrap's or the relay's line): make it a start failure. */
function startFailure(result: ProcessResult, sandboxed: boolean): ProcessResult {
  if (!sandboxed || result.spawnError || result.exitCode === 0) return result;
  const line = /^(?:bwrap: execvp |ecdysis sandbox: could not start )(.*)$/m.exec(result.stderr);
  return line ? { ...result, spawnError: line[1] } : result;
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
