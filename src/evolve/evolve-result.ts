import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SandboxStatus } from "../agent/sandbox/sandbox-policy.js";
import type { LoadedConfig } from "../config/config-schema.js";
import type { RolloutCache } from "../eval/rollout-cache.js";
import { codeReaches } from "../harness/code-reaches.js";
import { diffHarness } from "../harness/diff-harness.js";
import { assertHarnessSealed } from "../harness/final-harness-guard.js";
import type { GuardContext } from "../harness/guard-context.js";
import { rebasePatch } from "../harness/patch-root.js";
import type { LoadedHarness } from "../harness/types.js";
import { writeHarness } from "../harness/write-harness.js";
import type { Downgrade } from "../llm/capabilities.js";
import type { SecretRedactor } from "../safety/secrets.js";
import { type BudgetTracker, refinementShare, type Spend } from "./budget.js";
import { evolveGate } from "./gate-result.js";
import type { LoopOutcome } from "./loop.js";
import type { Measured } from "./measurement.js";
import type { BudgetCoverage } from "./measurement-budget.js";
import { scoreOf } from "./records.js";
import {
  type EvolveResult,
  evolveResultSchema,
  type RunMetadata,
  resultSchemaVersion,
} from "./result-schema.js";
import { buildRunRecords, measureSummary, runRecordsFile } from "./run-records.js";
import type { Strategy } from "./strategy.js";

/** result.json's `cost`: the whole run's spend, the refinement's part, and training alone. */
function costOf(spend: Spend, training: Spend): EvolveResult["cost"] {
  return {
    rollouts: spend.rollouts,
    llmCalls: spend.llmCalls,
    promptTokens: spend.promptTokens,
    completionTokens: spend.completionTokens,
    costUsd: spend.costUsd,
    wallMs: spend.wallMs,
    refinementShare: refinementShare(spend),
    refinement: {
      llmCalls: spend.refinerCalls,
      tokens: spend.refinerTokens,
      costUsd: spend.refinerCostUsd,
    },
    ...agentUsage(spend),
    training,
  };
}

/** Where a command harness's own spend was counted (result.json's `cost.agentUsage`). */
function agentUsage(spend: Spend): Partial<EvolveResult["cost"]> {
  const { gatewayRollouts, selfReportedRollouts } = spend;
  if (gatewayRollouts + selfReportedRollouts === 0) return {};
  const source =
    selfReportedRollouts === 0 ? "gateway" : gatewayRollouts === 0 ? "agent-reported" : "mixed";
  return { agentUsage: { source, gatewayRollouts, selfReportedRollouts } };
}

/** result.json of a finished run, validated against its schema. */
export function evolveResult(input: {
  loaded: LoadedConfig;
  strategy: Strategy;
  model: string;
  seed: LoadedHarness;
  outcome: LoopOutcome;
  measured: Measured;
  budget: BudgetTracker;
  training: Spend;
  coverage: BudgetCoverage;
  /** Capability steps the endpoints forced (result.json's `endpoints`, only when there were some). */
  downgrades: Downgrade[];
  /** How the command harness ran (result.json's `sandbox`, with what the code reaches). */
  sandbox: SandboxStatus;
  metadata: RunMetadata;
}): EvolveResult {
  const { loaded, outcome } = input;
  const [seedTrain, seedHeldout, finalTrain, finalHeldout] = input.measured;
  const diff = diffHarness(input.seed, outcome.finalHarness);
  return evolveResultSchema.parse({
    schemaVersion: resultSchemaVersion,
    strategy: input.strategy.name,
    seed: loaded.config.seed,
    configHash: loaded.hash,
    model: input.model,
    stoppedBy: outcome.stoppedBy,
    baseline: { train: scoreOf(seedTrain.result), heldout: scoreOf(seedHeldout.result) },
    final: { train: scoreOf(finalTrain.result), heldout: scoreOf(finalHeldout.result) },
    iterations: outcome.iterations,
    acceptedEdits: outcome.iterations
      .filter((iteration) => iteration.verdict === "accepted")
      .flatMap((iteration) => iteration.applied),
    rejectedProposals: outcome.memory,
    cost: costOf(input.budget.snapshot(), input.training),
    budget: { ...loaded.config.evolve.budget, ...input.coverage },
    harness: {
      seedHash: input.seed.hash,
      finalHash: outcome.finalHarness.hash,
      changedFiles: diff.files,
      patch: diff.patch,
    },
    gate: evolveGate({
      baseline: seedHeldout.result,
      final: finalHeldout.result,
      gate: loaded.config.gate,
    }),
    run: input.metadata,
    measures: {
      train: { seed: measureSummary(seedTrain), final: measureSummary(finalTrain) },
      heldout: { seed: measureSummary(seedHeldout), final: measureSummary(finalHeldout) },
    },
    ...(input.downgrades.length > 0 ? { endpoints: { downgrades: input.downgrades } } : {}),
    ...(loaded.config.harness.kind === "command"
      ? {
          sandbox: input.sandbox,
          reaches: codeReaches(input.seed.files, outcome.finalHarness.files),
        }
      : {}),
  });
}

/**
 * Writes the final harness (`harness/`) once it has passed the content and path guards again
 * (`assertHarnessSealed`): the Action commits and pushes what lands here. Every text scrubbed.
 */
export async function writeFinalHarness(options: {
  outDir: string;
  seed: LoadedHarness;
  finalHarness: LoadedHarness;
  guard: GuardContext;
}): Promise<void> {
  assertHarnessSealed({ seed: options.seed, final: options.finalHarness, guard: options.guard });
  await mkdir(path.join(options.outDir, "harness"), { recursive: true });
  await writeHarness(options.finalHarness, path.join(options.outDir, "harness"));
}

/**
 * Writes the run's outputs: the final harness (`writeFinalHarness`), harness.patch, records.json
 * (what the drill-down report shows beyond result.json, `buildRunRecords`) and result.json.
 * Every text written is scrubbed of the run's secrets.
 */
export async function writeOutputs(options: {
  outDir: string;
  result: EvolveResult;
  seed: LoadedHarness;
  finalHarness: LoadedHarness;
  guard: GuardContext;
  redactor: SecretRedactor;
  train: Parameters<typeof buildRunRecords>[0]["train"];
  measured: Measured;
  /** Where the failing rollouts the measurements and iterations name are read back from. */
  cache: RolloutCache;
  /** The harness folder's path from where `git apply` runs (harness.patch's file headers). */
  patchPrefix?: string;
}): Promise<void> {
  const { outDir, result, redactor } = options;
  await writeFinalHarness(options);
  const write = (name: string, text: string) =>
    writeFile(path.join(outDir, name), redactor.text(text));
  await write("harness.patch", rebasePatch(result.harness.patch, options.patchPrefix ?? ""));
  const records = await buildRunRecords({
    train: options.train,
    iterations: result.iterations,
    measured: options.measured,
    cache: options.cache,
  });
  await write(runRecordsFile, JSON.stringify(redactor.json(records)));
  await write("result.json", `${JSON.stringify(result, null, 2)}\n`);
}
