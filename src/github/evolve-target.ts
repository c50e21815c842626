import { relative, sep } from "node:path";
import { InputError } from "../errors/input-error.js";
import type { ConfigFacts } from "./action-engine.js";
import { defaultBranchFor, type Git, sanitizeBranchName } from "./git.js";
import { type HarnessIdentity, harnessIdentity } from "./harness-identity.js";
import type { ModeContext } from "./mode-context.js";

/** Where an evolve run proposes its change, and under which name. */
export interface EvolveTarget {
  facts: ConfigFacts;
  /** Git at the repository root of the checkout. */
  git: Git;
  /** Harness folder relative to the repository root (forward slashes). */
  harnessPath: string;
  base: string;
  branch: string;
  identity: HarnessIdentity;
}

/**
 * The branch the PR targets: the `base` input, else — like create-pull-request — the branch the
 * workflow checked out (so a dispatch from another branch proposes to that branch, measured on
 * its own harness). A checkout on a tag or a bare commit has no such branch: the run refuses.
 */
async function resolveBase(context: ModeContext, git: Git): Promise<string> {
  if (context.options.base) return context.options.base;
  const symbolic = await git.exec(["symbolic-ref", "--quiet", "--short", "HEAD"]);
  if (symbolic.code === 0 && symbolic.stdout.trim() !== "") return symbolic.stdout.trim();
  const ref = context.run.ref ?? "";
  if (ref.startsWith("refs/heads/")) return ref.slice("refs/heads/".length);
  throw new InputError(
    "workflow inputs",
    `the checkout is not on a branch (GITHUB_REF '${ref || "unset"}'), so there is no branch to propose to: set 'base' to the branch the pull request should target`,
    { field: "base" },
  );
}

/** The repository's default branch, when the event payload or the API says it. */
async function defaultBranchOf(context: ModeContext): Promise<string | undefined> {
  if (context.run.defaultBranch) return context.run.defaultBranch;
  if (!context.client) return undefined;
  const { data } = await context.client.rest.repos.get({
    owner: context.run.owner,
    repo: context.run.repo,
  });
  return data.default_branch;
}

/**
 * Read the config's facts and settle the run's base, its one branch (`branch` input, else
 * `ecdysis/<harness folder>`, plus `-to-<base>` off the default branch) and the harness's
 * identity (status context, PR title), all before the engine runs.
 */
export async function resolveEvolveTarget(context: ModeContext): Promise<EvolveTarget> {
  const facts = await context.engine.describe({ configPath: context.configPath });
  const root = (await context.git.run(["rev-parse", "--show-toplevel"])).trim();
  const git = context.git.at(root);
  const harnessPath = relative(root, facts.harnessDir).split(sep).join("/");
  const base = await resolveBase(context, git);
  const defaultBranch = await defaultBranchOf(context);
  const branch = sanitizeBranchName(
    context.options.branch ??
      defaultBranchFor(harnessPath, defaultBranch && base !== defaultBranch ? base : undefined),
  );
  const identity = harnessIdentity({ harnessPath, statusContext: facts.statusContext });
  return { facts, git, harnessPath, base, branch, identity };
}
