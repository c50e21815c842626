import { builtinAgent } from "../agent/builtin-agent.js";
import { commandAgent } from "../agent/command-agent.js";
import { loadTasks } from "../config/load-tasks.js";
import {
  diagnoseBatch,
  type FailurePattern,
  failurePatternSchema,
  noteFailure,
} from "../diagnose/index.js";
import { createScorer, evaluate, openModels, RolloutCache } from "../eval/index.js";
import { applyEdits, diffHarness, loadHarness, writeHarness } from "../harness/index.js";
import { withCallCache } from "../llm/index.js";
import {
  hmsSchema,
  type RefinementRecord,
  type RejectedProposal,
  refine,
  reflect,
} from "../refine/index.js";
import type { EvolveDeps } from "./deps.js";
import type { PatternView, RefinementView, RejectedProposalView } from "./stage-views.js";

/** A diagnose-stage pattern as the loop sees it (the original kept in `source`). */
export function toPatternView(pattern: FailurePattern): PatternView {
  return {
    id: pattern.id,
    name: pattern.name,
    description: pattern.description,
    kind: pattern.kind,
    reasons: pattern.reasons.map((reason) => `${reason.code}: ${reason.detail}`),
    module: pattern.module,
    support: pattern.support,
    taskIds: pattern.taskIds,
    memberKeys: pattern.memberKeys,
    examples: pattern.examples.map((example) => ({
      taskId: example.taskId,
      rolloutKey: example.rolloutKey,
      note: example.note,
    })),
    source: pattern,
  };
}

/** A refine-stage record as the loop sees it. */
export function toRefinementView(record: RefinementRecord): RefinementView {
  const summary = record.hms
    ? record.hms.changes.map((change) => `${change.module}: ${change.change}`).join("; ")
    : (record.rejection?.reason ?? record.outcome);
  const { turns, ...rest } = record;
  return {
    verdict: record.outcome === "accepted" ? "accepted" : "rejected",
    reason:
      record.rejection?.reason ?? (record.outcome === "accepted" ? undefined : record.outcome),
    hmsSummary: summary,
    hms: record.hms,
    rounds: record.rounds.length,
    roles: turns.map((turn) => ({
      role: turn.role,
      round: turn.round,
      output: turn.output ?? { error: turn.error ?? "no usable reply" },
    })),
    edits: record.edits,
    droppedEdits: record.droppedEdits,
    source: rest,
  };
}

/** A rejected proposal in the refine stage's shape. */
export function toRejectedProposal(view: RejectedProposalView): RejectedProposal {
  const parsed = hmsSchema.safeParse(view.hms);
  const hms = parsed.success
    ? parsed.data
    : {
        changes: [
          {
            module: "unknown",
            change: view.hmsSummary,
            patterns: view.patterns,
            expectedEffect: "",
            regressionRisks: "",
          },
        ],
      };
  return {
    hms,
    reason: view.reason,
    patternIds: view.patterns,
    ...(view.pruned ? { pruned: true } : {}),
    ...(view.earlierHarness ? { earlierHarness: true } : {}),
  };
}

/** The real stages, wired for runEvolve and runGate. */
export const realDeps: EvolveDeps = {
  evaluate: (options) => evaluate({ ...options, cache: options.cache as RolloutCache | undefined }),
  async diagnose(options) {
    const { onSupported } = options;
    const report = await diagnoseBatch({
      ...options,
      onSupported: onSupported && ((patterns) => onSupported(patterns.map(toPatternView))),
    });
    return {
      patterns: report.patterns.map(toPatternView),
      evidenceCount: report.evidence.length,
      source: { stats: report.stats },
    };
  },
  noteFailure,
  async refine(options) {
    const record = await refine({
      patterns: options.patterns.map((pattern) => failurePatternSchema.parse(pattern.source)),
      harness: options.harness,
      refiner: options.refiner,
      rejected: options.rejected.map(toRejectedProposal),
      skepticRounds: options.skepticRounds,
      heldout: options.heldout,
      editable: options.editable,
    });
    return toRefinementView(record);
  },
  async reflect(options) {
    return toRefinementView(
      await reflect({ ...options, rejected: options.rejected.map(toRejectedProposal) }),
    );
  },
  applyEdits: (options) => applyEdits(options),
  diffHarness: (before, after) => diffHarness(before, after),
  loadHarness: (options) => loadHarness(options),
  writeHarness: (harness, dir) => writeHarness(harness, dir),
  loadTasks: (file) => loadTasks(file),
  createScorer: (spec, context) => createScorer(spec, context),
  createAdapter(loaded) {
    const harness = loaded.config.harness;
    if (harness.kind === "command")
      return commandAgent({ timeoutMs: harness.timeoutMs, cwd: loaded.root });
    return builtinAgent();
  },
  createRolloutCache: (dir) => new RolloutCache(dir),
  openModels: (loaded) => openModels(loaded),
  withCallCache: (provider, dir, redactor) =>
    withCallCache(provider, dir, redactor && { redact: (response) => redactor.json(response) }),
};
