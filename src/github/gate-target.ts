import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import * as core from "@actions/core";
import { InputError } from "../errors/input-error.js";
import type { ConfigFacts } from "./action-engine.js";
import { ensureCommit, materialiseBaseTree } from "./base-tree.js";
import { type HarnessIdentity, harnessIdentity } from "./harness-identity.js";
import { gateScratch } from "./head-harness.js";
import type { ModeContext } from "./mode-context.js";
import { logGroup } from "./summary.js";

/** What the gate measures: the base's config and harness, and where the PR's harness is. */
export interface GateTarget {
  /** Root of the checkout (the PR's files). */
  root: string;
  /** The base commit's config, copied into the scratch folder. */
  baseConfig: string;
  facts: ConfigFacts;
  /** Harness folder relative to the repository root (the platform's separators). */
  harnessRel: string;
  identity: HarnessIdentity;
  scratch: { base: string; head: string };
}

/** The config's path relative to the checkout root, refusing one outside the repository. */
async function configInRepository(
  context: ModeContext,
): Promise<{ root: string; configRel: string }> {
  const root = (await context.git.run(["rev-parse", "--show-toplevel"])).trim();
  const configRel = relative(root, context.configPath).split(sep).join("/");
  if (configRel.startsWith(".."))
    throw new InputError(context.configPath, "the config must be inside the repository", {
      field: "config",
    });
  return { root, configRel };
}

/**
 * Copy the config's folder out of the PR's base commit (byte-exact, never the PR's copies) into
 * the run's scratch folder and read its facts: the gate trusts the base branch's config, tasks,
 * scorer and thresholds only.
 */
export async function prepareGateTarget(
  context: ModeContext,
  baseSha: string,
): Promise<GateTarget> {
  const { git } = context;
  const { root, configRel } = await configInRepository(context);
  const scratch = gateScratch(context.scratchDir);
  await ensureCommit(git, baseSha);
  const copied = await logGroup("base files", () =>
    materialiseBaseTree({
      git,
      sha: baseSha,
      folder: dirname(configRel) === "." ? "" : dirname(configRel),
      into: scratch.base,
    }),
  );
  for (const path of copied.skipped) core.info(`base copy: skipped ${path} (symlink or submodule)`);
  const baseConfig = join(scratch.base, configRel);
  if (!existsSync(baseConfig)) {
    throw new InputError(
      configRel,
      `the base commit ${baseSha.slice(0, 7)} has no such config; the gate only trusts the base branch's config`,
      { field: "config" },
    );
  }
  const facts = await context.engine.describe({ configPath: baseConfig });
  const harnessRel = relative(scratch.base, facts.harnessDir);
  if (harnessRel.startsWith("..") || harnessRel === "")
    throw new InputError(configRel, "the harness folder must be a folder inside the repository", {
      field: "harness.dir",
    });
  const identity = harnessIdentity({
    harnessPath: harnessRel.split(sep).join("/"),
    statusContext: facts.statusContext,
  });
  return { root, baseConfig, facts, harnessRel, identity, scratch };
}
