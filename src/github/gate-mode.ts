import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import { ensureCommit, materialiseBaseTree } from "./base-tree.js";
import { postCommitStatus, upsertStickyComment } from "./commit-status.js";
import { copyHeadHarness, gateScratch } from "./head-harness.js";
import { formatAccuracy, type ModeContext } from "./mode-context.js";
import { describeFailure } from "./run-report.js";
import { publishArtifact } from "./run-services.js";
import { logGroup } from "./summary.js";

const stateOf = { pass: "success", fail: "failure", error: "error" } as const;

/**
 * `mode: gate` on a pull_request: the config, held-out tasks, scorer and thresholds come from the
 * PR's base commit (copied byte-exact out of git into the run's scratch folder), the head
 * harness from the PR checkout — copied alone outside the workspace and run there, its project
 * root holding no task file. Posts a commit status with a fixed context on the head sha and one
 * sticky comment; `gate-verdict` is `pass`, `fail` or (when the gate itself fails) `error`; a
 * verdict other than `pass` fails the step.
 */
export async function runGateMode(context: ModeContext): Promise<void> {
  const { engine, options, run, client, git, report } = context;
  const pr = run.pullRequest;
  if (!pr)
    throw new InputError(
      "workflow",
      "mode 'gate' runs on pull_request events (no pull_request in the event payload)",
      { field: "on" },
    );
  if (!client)
    throw new InputError("workflow inputs", "'github-token' is required to post the gate status", {
      field: "github-token",
    });
  const repoRef = { client, owner: run.owner, repo: run.repo };
  const root = (await git.run(["rev-parse", "--show-toplevel"])).trim();
  const configRel = relative(root, context.configPath).split(sep).join("/");
  if (configRel.startsWith(".."))
    throw new InputError(context.configPath, "the config must be inside the repository", {
      field: "config",
    });
  const statusBase = { ...repoRef, sha: pr.headSha, targetUrl: run.runUrl };
  const scratch = gateScratch(context.scratchDir);
  let statusContext = "ecdysis/heldout";
  let harnessRel = "";
  let outcome: Awaited<ReturnType<typeof engine.gate>>;
  try {
    await ensureCommit(git, pr.baseSha);
    const copied = await logGroup("base files", () =>
      materialiseBaseTree({
        git,
        sha: pr.baseSha,
        folder: dirname(configRel) === "." ? "" : dirname(configRel),
        into: scratch.base,
      }),
    );
    for (const path of copied.skipped)
      core.info(`base copy: skipped ${path} (symlink or submodule)`);
    const baseConfig = join(scratch.base, configRel);
    if (!existsSync(baseConfig)) {
      throw new InputError(
        configRel,
        `the base commit ${pr.baseSha.slice(0, 7)} has no such config; the gate only trusts the base branch's config`,
        { field: "config" },
      );
    }
    const facts = await engine.describe({ configPath: baseConfig });
    statusContext = facts.statusContext;
    harnessRel = relative(scratch.base, facts.harnessDir);
    if (harnessRel.startsWith("..") || harnessRel === "")
      throw new InputError(configRel, "the harness folder must be a folder inside the repository", {
        field: "harness.dir",
      });
    const headHarnessDir = await copyHeadHarness({
      from: join(root, harnessRel),
      into: join(scratch.head, harnessRel),
      exclude: facts.taskFiles.map((file) => join(root, relative(scratch.base, file))),
    });
    await report.attempt(() =>
      postCommitStatus({
        ...statusBase,
        state: "pending",
        context: statusContext,
        description: "evaluating base and head harness on held-out tasks",
      }),
    );
    outcome = await logGroup("gate", () =>
      engine.gate({
        configPath: baseConfig,
        baseHarnessDir: facts.harnessDir,
        headHarnessDir,
        headProjectRoot: scratch.head,
        outDir: context.outDir,
        llm: { baseUrl: options["base-url"], apiKey: options["api-key"], model: options.model },
        runUrl: run.runUrl,
      }),
    );
  } catch (error) {
    report.set("gate-verdict", "error");
    const text = describeFailure(error);
    report.problem(`held-out gate error: ${text}`);
    await report.attempt(() =>
      postCommitStatus({
        ...statusBase,
        state: "error",
        context: statusContext,
        description: context.scrubber.scrub(`gate error: ${text}`),
      }),
    );
    return;
  }
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
      ...statusBase,
      state: stateOf[outcome.verdict],
      context: outcome.statusContext,
      description: outcome.description,
    }),
  );
  const comment = await report.attempt(() =>
    upsertStickyComment({ ...repoRef, number: pr.number, body: outcome.commentBody }),
  );
  if (comment) core.info(`gate comment ${comment.operation} (${comment.id})`);
  await publishArtifact(context, outcome.outDir, harnessRel.split(sep).join("/"));
}
