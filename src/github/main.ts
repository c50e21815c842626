import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import type { ActionEngine } from "./action-engine.js";
import { type ActionOptions, parseActionOptions } from "./action-options.js";
import type { ArtifactUploader } from "./artifact.js";
import type { CacheService } from "./cache.js";
import { readRunContext } from "./context.js";
import { runEvalMode } from "./eval-mode.js";
import { runEvolveMode } from "./evolve-mode.js";
import { runGateMode } from "./gate-mode.js";
import { Git } from "./git.js";
import { gitAuthEnv } from "./git-auth.js";
import { createGitHubClient, type Waiter } from "./github-client.js";
import type { ModeContext } from "./mode-context.js";
import { describeFailure, RunReport } from "./run-report.js";
import { runtimeProblem } from "./runner-version.js";
import { prepareSandboxFor, realSandboxHost } from "./sandbox-host.js";
import { neutraliseWorkflowCommands, SecretScrubber } from "./secrets.js";
import { writeJobSummary } from "./summary.js";

export { describeFailure } from "./run-report.js";

/** What the entry can be given instead of the real services (tests inject a fake engine); all default to the real ones. */
export interface RunDependencies {
  engine: ActionEngine;
  waiter?: Waiter;
  cacheService?: CacheService;
  uploader?: ArtifactUploader;
  /** Aborted on SIGINT/SIGTERM by the entry (reason: an InterruptedError). */
  signal?: AbortSignal;
}

const modes = { evolve: runEvolveMode, gate: runGateMode, eval: runEvalMode } as const;

/** The run context, the GitHub client and git (authenticated when there is a token), the run's folders. */
async function modeContext(options: {
  options: ActionOptions;
  dependencies: Partial<RunDependencies>;
  scrubber: SecretScrubber;
  report: RunReport;
}): Promise<ModeContext> {
  const { dependencies, scrubber } = options;
  const run = readRunContext();
  const token = options.options["github-token"];
  const client = token
    ? createGitHubClient({
        token,
        baseUrl: run.apiUrl,
        waiter: dependencies.waiter,
        log: (line) => core.info(line),
      })
    : undefined;
  const git = new Git({
    cwd: run.workspace,
    env: token ? await gitAuthEnv({ cwd: run.workspace, token, serverUrl: run.serverUrl }) : {},
    scrub: (text) => scrubber.scrub(text),
  });
  const temp = process.env.RUNNER_TEMP || tmpdir();
  const runName = `ecdysis-${options.options.mode}-${run.runId}-${process.pid}`;
  return {
    engine: dependencies.engine ?? (await import("./real-engine.js")).realEngine(),
    options: options.options,
    run,
    client,
    git,
    scrubber,
    configPath: resolve(run.workspace, options.options.config),
    // The phases of a split evolve share one run folder in the workspace, moved between jobs.
    outDir:
      options.options.phase === "all"
        ? join(temp, runName)
        : resolve(run.workspace, options.options["run-dir"]),
    scratchDir: join(temp, `${runName}-scratch`),
    report: options.report,
    cacheService: dependencies.cacheService,
    uploader: dependencies.uploader,
    signal: dependencies.signal,
  };
}

/**
 * The Action: mask secrets, parse inputs into one options object, run the mode. Outputs are set
 * as the mode learns them, so an error late in the run loses none; the job summary is written
 * on every run; every problem ends in `core.setFailed` with actionable text.
 */
export async function run(dependencies: Partial<RunDependencies> = {}): Promise<void> {
  const scrubber = new SecretScrubber();
  for (const name of ["api-key", "github-token"]) {
    for (const form of scrubber.add(core.getInput(name))) core.setSecret(form);
  }
  const clean = (text: string) => neutraliseWorkflowCommands(scrubber.scrub(text));
  const report = new RunReport((name, value) => core.setOutput(name, scrubber.scrub(value)));
  let mode = "evolve";
  let scratchDir: string | undefined;
  try {
    const runtime = runtimeProblem({ nodeVersion: process.version, env: process.env });
    if (runtime) throw runtime;
    const options = parseActionOptions((name) => core.getInput(name));
    mode = options.mode;
    const context = await modeContext({ options, dependencies, scrubber, report });
    scratchDir = context.scratchDir;
    if (!dependencies.engine)
      await prepareSandboxFor(
        context.configPath,
        realSandboxHost((line) => core.info(line)),
      );
    await modes[options.mode](context);
  } catch (error) {
    report.problem(describeFailure(error));
  } finally {
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
    if (report.problems.length > 0) core.setFailed(clean(report.problems.join("\n")));
    await writeJobSummary({
      markdown:
        report.summaryMarkdown ??
        `## Ecdysis ${mode}\n\nThe run stopped before the engine produced a report.`,
      facts: { mode, outputs: report.outputs, notes: report.notes, problems: report.problems },
      scrub: (text) => scrubber.scrub(text),
    });
  }
}
