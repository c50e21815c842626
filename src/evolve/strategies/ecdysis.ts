import { refinementSummary } from "../../refine/refinement-record.js";
import { helpsAlone } from "../acceptance.js";
import { type EvidenceStage, type PrunedChange, prunedChangesOf } from "../evidence.js";
import { editsSummary, type RememberedProposal, rememberedHms } from "../memory.js";
import type { RunContext } from "../run-context.js";
import { withSpeedups } from "../speed/index.js";
import type { LoopStep, Strategy } from "../strategy.js";
import { proposeEcdysis } from "./ecdysis-propose.js";
import { validateEcdysis } from "./ecdysis-validate.js";
import { plainSteps } from "./steps.js";

/**
 * Ecdysis: per iteration, a stratified train batch under the current harness → cross-instance
 * diagnosis → collaborative refinement on the systematic patterns that still have attempts left
 * (`maxAttemptsPerPattern`; rejected proposals are shown to later attempts) → guards → cheap
 * validation with per-change attribution → full batch → accepted only on a one-sided exact
 * McNemar test (p < alpha, fixed > broken). Stops when no systematic pattern with attempts
 * left remains. With `context.speedups`, the speed tricks wrap its steps (src/evolve/speed).
 */
export function ecdysisStrategy(): Strategy {
  return {
    name: "ecdysis",
    open(context: RunContext) {
      const plain = plainSteps(context);
      const steps = context.speedups ? withSpeedups(plain, context) : plain;
      return {
        start: async (seed) => ({ harness: seed, memory: [] }),
        propose: (state, index) => proposeEcdysis({ context, steps, state, index }),
        validate: (proposal) => validateEcdysis({ context, steps, proposal }),
        next: (state, step) => ({
          harness: step.verdict.accepted
            ? (step.evidence.candidates.get(step.verdict.candidateHash)?.harness ?? state.harness)
            : state.harness,
          memory: [...state.memory, ...remembered(step, state.harness.hash)],
        }),
      };
    },
  };
}

/**
 * What a decided proposal adds to the memory, in the order it happened: each pruned change (an
 * attempt at its patterns), each change an ablation dropped, then — when rejected — the rest of
 * the proposal (a proposal pruned to nothing is remembered through its pruned changes alone).
 */
function remembered(step: LoopStep, parentHash: string): RememberedProposal[] {
  const { proposal, evidence, verdict } = step;
  const out = fromStages(evidence.stages, { proposal, parentHash });
  if (verdict.accepted) return out;
  const pruned = new Set((prunedChangesOf(evidence.stages) ?? []).flatMap((c) => c.edits));
  // A refused proposal was never tried: nothing of it is an edit set to drop unvalidated later.
  const rest =
    proposal.kind === "candidate"
      ? proposal.guarded.applied.filter((edit) => !pruned.has(edit))
      : [];
  if (proposal.kind === "candidate" && rest.length === 0) return out;
  const summary = refinementSummary(proposal.refinement);
  return [
    ...out,
    {
      summary,
      hms: rememberedHms(proposal.refinement.hms, summary, proposal.targets),
      reason: verdict.reason,
      patternIds: proposal.targets,
      parentHash,
      ...(rest.length > 0 ? { edits: rest } : {}),
      ...(proposal.refinement.outcome === "no-changes" ? { nothingProposed: true } : {}),
    },
  ];
}

function fromStages(
  stages: readonly EvidenceStage[],
  options: { proposal: LoopStep["proposal"]; parentHash: string },
): RememberedProposal[] {
  return stages.flatMap((stage): RememberedProposal[] => {
    if (stage.stage === "pruned" && !stage.undone)
      return stage.changes.map((change) => prunedChange(change, options));
    if (stage.stage === "ablated") {
      const kept = stage.changes.filter((change) => change.kept).length;
      if (kept === 0 || kept === stage.changes.length) return [];
      return stage.changes
        .filter((change) => !change.kept)
        .map((change) => {
          const summary = editsSummary(change.edits);
          return {
            summary,
            hms: rememberedHms(undefined, summary, change.patterns),
            reason: helpsAlone(change).reason,
            patternIds: change.patterns,
            edits: change.edits,
            parentHash: options.parentHash,
          };
        });
    }
    // A repair round's pruned and dropped changes are remembered with the proposal it repairs.
    if (stage.stage === "repaired") return fromStages(stage.evidence, options);
    return [];
  });
}

/** A pruned change, remembered as an attempt at its own patterns (not as a rejection). */
function prunedChange(
  change: PrunedChange,
  options: { proposal: LoopStep["proposal"]; parentHash: string },
): RememberedProposal {
  const { proposal, parentHash } = options;
  const summary = editsSummary(change.edits);
  const patterns = proposal.addressed.filter((pattern) => change.patterns.includes(pattern.id));
  const patternIds = [...new Set(patterns.flatMap((pattern) => [pattern.id, pattern.name]))];
  return {
    summary,
    hms: rememberedHms(hmsFor(proposal.refinement.hms, change.patterns), summary, patternIds),
    reason: `pruned: ${change.reason}`,
    patternIds,
    pruned: true,
    edits: change.edits,
    parentHash,
  };
}

/** The HMS changes of a refinement that aim at one of these pattern ids. */
function hmsFor(hms: { changes: { patterns: string[] }[] } | null, patternIds: string[]): unknown {
  const changes = (hms?.changes ?? []).filter((change) =>
    change.patterns.some((id) => patternIds.includes(id)),
  );
  return changes.length > 0 ? { changes } : undefined;
}
