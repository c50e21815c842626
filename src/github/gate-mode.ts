import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import { ensureCommit, materialiseBaseTree } from "./base-tree.js";
import { postCommitStatus, upsertStickyComment } from "./commit-status.js";
import { formatAccuracy, type ModeContext, type ModeResult } from "./mode-context.js";
import { publishArtifact } from "./run-services.js";
import { logGroup } from "./summary.js";

const stateOf = { pass: "success", fail: "failure", error: "error" } as const;

/**
 * `mode: gate` on a pull_request: the config, held-out tasks, scorer and thresholds come from the
 * PR's base commit (copied out with `git show`), the head harness from the PR checkout. Posts a
 * commit status with a fixed context on the head sha and one sticky comment; a `fail` verdict
 * fails the step.
 */
export async function runGateMode(context: ModeContext): Promise<ModeResult> {
  const { engine, options, run, client, git } = context;
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
  let statusContext = "ecdysis/heldout";
  try {
    await ensureCommit(git, pr.baseSha);
    const baseRoot = await logGroup("base files", () =>
      materialiseBaseTree({
        git,
        sha: pr.baseSha,
        folder: dirname(configRel) === "." ? "" : dirname(configRel),
      }),
    );
    const baseConfig = join(baseRoot, configRel);
    if (!existsSync(baseConfig)) {
      throw new InputError(
        configRel,
        `the base commit ${pr.baseSha.slice(0, 7)} has no such config; the gate only trusts the base branch's config`,
        { field: "config" },
      );
    }
    const facts = await engine.describe({ configPath: baseConfig });
    statusContext = facts.statusContext;
    const harnessRel = relative(baseRoot, facts.harnessDir);
    if (harnessRel.startsWith(".."))
      throw new InputError(configRel, "the harness folder must be inside the repository", {
        field: "harness.dir",
      });
    await postCommitStatus({
      ...statusBase,
      state: "pending",
      context: statusContext,
      description: "evaluating base and head harness on held-out tasks",
    });
    const outcome = await logGroup("gate", () =>
      engine.gate({
        configPath: baseConfig,
        baseHarnessDir: facts.harnessDir,
        headHarnessDir: resolve(root, harnessRel),
        outDir: context.outDir,
        llm: { baseUrl: options["base-url"], apiKey: options["api-key"], model: options.model },
        runUrl: run.runUrl,
      }),
    );
    await postCommitStatus({
      ...statusBase,
      state: stateOf[outcome.verdict],
      context: outcome.statusContext,
      description: outcome.description,
    });
    const comment = await upsertStickyComment({
      ...repoRef,
      number: pr.number,
      body: outcome.commentBody,
    });
    core.info(`gate comment ${comment.operation} (${comment.id})`);
    await publishArtifact(context, outcome.outDir);
    const result: ModeResult = {
      outputs: {
        "gate-verdict": outcome.verdict,
        "baseline-heldout-accuracy": formatAccuracy(outcome.baseAccuracy),
        "final-heldout-accuracy": formatAccuracy(outcome.headAccuracy),
        "report-path": outcome.reportPath,
      },
      summaryMarkdown: outcome.summaryMarkdown,
      notes: [],
    };
    if (outcome.verdict !== "pass")
      result.failure = `held-out gate ${outcome.verdict}: ${outcome.description}`;
    return result;
  } catch (error) {
    await postCommitStatus({
      ...statusBase,
      state: "error",
      context: statusContext,
      description: context.scrubber.scrub(`gate error: ${(error as Error).message}`),
    }).catch(() => {});
    throw error;
  }
}
