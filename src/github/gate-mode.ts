import { join, relative, sep } from "node:path";
import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import { untilAborted } from "../errors/interrupted-error.js";
import type { GateOutcome } from "./action-engine.js";
import { postCommitStatus, upsertStickyComment } from "./commit-status.js";
import type { RunContext } from "./context.js";
import { reportForkPullRequest } from "./fork-guard.js";
import { type GateTarget, prepareGateTarget } from "./gate-target.js";
import { defaultStatusContext } from "./harness-identity.js";
import { copyHeadHarness } from "./head-harness.js";
import { formatAccuracy, llmOverrides, type ModeContext } from "./mode-context.js";
import type { RepoRef } from "./repo-ref.js";
import { describeFailure } from "./run-report.js";
import { publishArtifact } from "./run-services.js";
import { logGroup } from "./summary.js";
import { harnessUntouched, reportUntouched } from "./untouched-harness.js";

const stateOf = { pass: "success", fail: "failure", error: "error" } as const;

type PullRequest = NonNullable<RunContext["pullRequest"]>;

/** What one gate run works on. */
interface Gate {
  context: ModeContext;
  pr: PullRequest;
  repoRef: RepoRef;
}

/**
 * `mode: gate` on a pull_request: the config, held-out tasks, scorer and thresholds come from the
 * PR's base commit (copied byte-exact out of git into the run's scratch folder), the head
 * harness from the PR checkout — copied alone outside the workspace and run there, its project
 * root holding no task file. Posts a commit status with the harness's own context on the head
 * sha and one sticky comment; `gate-verdict` is `pass`, `fail`, `error` (the gate itself failed)
 * or `neutral` (not run: a PR from a fork, or one that leaves the harness untouched); `fail`
 * and `error` fail the step.
 */
export async function runGateMode(context: ModeContext): Promise<void> {
  const pr = context.run.pullRequest;
  if (!pr)
    throw new InputError(
      "workflow",
      "mode 'gate' runs on pull_request events (no pull_request in the event payload)",
      { field: "on" },
    );
  // Before anything else: a fork's code is never run, and its token could not post anyway.
  if (pr.fromFork) return reportForkPullRequest(context, pr);
  if (!context.client)
    throw new InputError("workflow inputs", "'github-token' is required to post the gate status", {
      field: "github-token",
    });
  const gate: Gate = {
    context,
    pr,
    repoRef: { client: context.client, owner: context.run.owner, repo: context.run.repo },
  };
  let target: GateTarget | undefined;
  let outcome: GateOutcome;
  try {
    target = await prepareGateTarget(context, pr.baseSha);
    const git = context.git.at(target.root);
    if (await harnessUntouched({ git, baseSha: pr.baseSha, harnessRel: target.harnessRel }))
      return reportUntouched(context, { ...gate, target, headSha: pr.headSha, number: pr.number });
    outcome = await evaluate(gate, target);
  } catch (error) {
    return reportGateError(gate, target?.identity.statusContext ?? defaultStatusContext, error);
  }
  await publishVerdict(gate, target, outcome);
}

/** Copy the PR's harness out of the workspace, mark the status pending, run the engine's gate. */
async function evaluate(gate: Gate, target: GateTarget): Promise<GateOutcome> {
  const { context, pr } = gate;
  const { engine, options, run } = context;
  const headHarnessDir = await copyHeadHarness({
    from: join(target.root, target.harnessRel),
    into: join(target.scratch.head, target.harnessRel),
    exclude: target.facts.taskFiles.map((file) =>
      join(target.root, relative(target.scratch.base, file)),
    ),
  });
  await context.report.attempt(() =>
    postCommitStatus({
      ...gate.repoRef,
      sha: pr.headSha,
      targetUrl: run.runUrl,
      state: "pending",
      context: target.identity.statusContext,
      description: "evaluating base and head harness on held-out tasks",
    }),
  );
  return logGroup("gate", () =>
    untilAborted(
      engine.gate({
        configPath: target.baseConfig,
        baseHarnessDir: target.facts.harnessDir,
        headHarnessDir,
        headProjectRoot: target.scratch.head,
        outDir: context.outDir,
        llm: llmOverrides(options),
        concurrency: options.concurrency,
        runUrl: run.runUrl,
      }),
      context.signal,
    ),
  );
}

/** The gate itself failed: `error` verdict and status, the cause as the step's failure. */
async function reportGateError(gate: Gate, statusContext: string, error: unknown): Promise<void> {
  const { report, scrubber, run } = gate.context;
  report.set("gate-verdict", "error");
  const text = describeFailure(error);
  report.problem(`held-out gate error: ${text}`);
  await report.attempt(() =>
    postCommitStatus({
      ...gate.repoRef,
      sha: gate.pr.headSha,
      targetUrl: run.runUrl,
      state: "error",
      context: statusContext,
      description: scrubber.scrub(`gate error: ${text}`),
    }),
  );
}

/** Outputs, the status under the harness's own context, its sticky comment, the artifact. */
async function publishVerdict(gate: Gate, target: GateTarget, outcome: GateOutcome): Promise<void> {
  const { report, run } = gate.context;
  report.summaryMarkdown = outcome.summaryMarkdown;
  report.setAll({
    "gate-verdict": outcome.verdict,
    "baseline-heldout-accuracy": formatAccuracy(outcome.baseAccuracy),
    "final-heldout-accuracy": formatAccuracy(outcome.headAccuracy),
    "report-path": outcome.reportPath,
  });
  if (outcome.verdict !== "pass")
    report.problem(`held-out gate ${outcome.verdict}: ${outcome.description}`);
  await report.attempt(() =>
    postCommitStatus({
      ...gate.repoRef,
      sha: gate.pr.headSha,
      targetUrl: run.runUrl,
      state: stateOf[outcome.verdict],
      context: target.identity.statusContext,
      description: outcome.description,
    }),
  );
  const comment = await report.attempt(() =>
    upsertStickyComment({
      ...gate.repoRef,
      number: gate.pr.number,
      body: outcome.commentBody,
      marker: target.identity.gateMarker,
      footer: `Details: ${run.runUrl}`,
    }),
  );
  if (comment) core.info(`gate comment ${comment.operation} (${comment.id})`);
  await publishArtifact(gate.context, outcome.outDir, target.harnessRel.split(sep).join("/"));
}
