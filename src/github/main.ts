import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import { EcdysisError } from "../errors/ecdysis-error.js";
import type { ActionCore } from "./action-core.js";
import { parseActionOptions } from "./action-options.js";
import type { ArtifactUploader } from "./artifact.js";
import type { CacheService } from "./cache.js";
import { readRunContext } from "./context.js";
import { runEvalMode } from "./eval-mode.js";
import { runEvolveMode } from "./evolve-mode.js";
import { runGateMode } from "./gate-mode.js";
import { Git } from "./git.js";
import { gitAuthEnv } from "./git-auth.js";
import { createGitHubClient, githubMessage, githubStatus, type Waiter } from "./github-client.js";
import type { ModeContext, ModeResult } from "./mode-context.js";
import { neutraliseWorkflowCommands, SecretScrubber } from "./secrets.js";
import { writeJobSummary } from "./summary.js";

/** What the entry can be given instead of the real services (tests inject a fake engine); all default to the real ones. */
export interface RunDependencies {
  engine: ActionCore;
  waiter?: Waiter;
  cacheService?: CacheService;
  uploader?: ArtifactUploader;
}

const modes = { evolve: runEvolveMode, gate: runGateMode, eval: runEvalMode } as const;

/** Text for `core.setFailed`: our errors already say what to fix; GitHub errors get their status. */
export function describeFailure(error: unknown): string {
  if (error instanceof EcdysisError) return error.message;
  const status = githubStatus(error);
  if (status !== undefined) return `GitHub API error ${status}: ${githubMessage(error)}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The Action: mask secrets, parse inputs into one options object, run the mode, set outputs and
 * the job summary, and turn every error into `core.setFailed` with actionable text.
 */
export async function run(dependencies: Partial<RunDependencies> = {}): Promise<void> {
  const scrubber = new SecretScrubber();
  for (const name of ["api-key", "github-token"]) {
    for (const form of scrubber.add(core.getInput(name))) core.setSecret(form);
  }
  const report = (text: string) => neutraliseWorkflowCommands(scrubber.scrub(text));
  let mode = "evolve";
  let result: ModeResult | undefined;
  try {
    const options = parseActionOptions((name) => core.getInput(name));
    mode = options.mode;
    const run = readRunContext();
    const token = options["github-token"];
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
    const engine = dependencies.engine ?? (await import("./real-core.js")).realCore();
    const context: ModeContext = {
      engine,
      options,
      run,
      client,
      git,
      scrubber,
      configPath: resolve(run.workspace, options.config),
      outDir: join(
        process.env.RUNNER_TEMP || tmpdir(),
        `ecdysis-${options.mode}-${run.runId}-${process.pid}`,
      ),
      cacheService: dependencies.cacheService,
      uploader: dependencies.uploader,
    };
    result = await modes[options.mode](context);
    for (const [name, value] of Object.entries(result.outputs))
      core.setOutput(name, scrubber.scrub(value));
    if (result.failure) core.setFailed(report(result.failure));
  } catch (error) {
    core.setFailed(report(describeFailure(error)));
  } finally {
    await writeJobSummary({
      markdown:
        result?.summaryMarkdown ??
        `## Ecdysis ${mode}\n\nThe run failed before producing a report; see the log.`,
      facts: { mode, outputs: result?.outputs ?? {}, notes: result?.notes ?? [] },
      scrub: (text) => scrubber.scrub(text),
    });
  }
}
