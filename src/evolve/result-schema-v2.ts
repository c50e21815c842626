import { ablationRetry, decide, helpsAlone } from "./acceptance.js";
import type { ValidationStage } from "./validation.js";

// result.json version 2, read by upgrading it to version 3 — `ecdysis compare` and `ecdysis
// report` still read the results earlier runs wrote. Version 2 kept a closed union of six stage
// kinds per iteration (`evidence`), the repair round nested inside the iteration it repaired;
// version 3 keeps self-describing stages (`validation`, validation.ts) and the repair round as
// a follow-up record of its own. The upgrade is a function of the file alone and checked by
// `evolveResultSchema` afterwards, like a version 3 file.

/** What a version 3 record says a repair round is for (the ecdysis strategy's words). */
const repairPurpose = "repair what the rejected candidate broke or exposed";

type Json = Record<string, unknown>;
type V2Stage = Json & { stage: string; decision?: { accepted: boolean; reason: string } };

/** A version 2 result.json as version 3 (unchecked: the caller validates it). */
export function upgradeV2(value: unknown): unknown {
  const result = value as Json & { strategy?: string; iterations?: unknown };
  if (!Array.isArray(result.iterations)) return { ...result, schemaVersion: 3 };
  const iterative = result.strategy === "iterative";
  const iterations = (result.iterations as Json[]).flatMap((iteration) =>
    upgradeIteration(iteration, iterative),
  );
  return { ...result, schemaVersion: 3, iterations };
}

/** One version 2 iteration: its own record, then its repair round's (when it had one). */
function upgradeIteration(iteration: Json, iterative: boolean): Json[] {
  const { evidence, ...rest } = iteration as Json & { evidence?: V2Stage[] };
  const stages = evidence ?? [];
  const repaired = stages.find((stage) => stage.stage === "repaired");
  const validation = stages
    .filter((stage) => stage !== repaired)
    .map((stage) => upgradeStage(stage, iterative));
  const own: Json = { ...rest, validation };
  if (!repaired) return [own];
  const repairAccepted = repaired.decision?.accepted === true;
  const verdict = decide(validation);
  const batch = rest.batch as { score: { accuracy: number } };
  const repairStages = ((repaired.evidence as V2Stage[] | undefined) ?? []).map((stage) =>
    upgradeStage(stage, iterative),
  );
  const combined = (repaired.applied as unknown[] | undefined) ?? [];
  const followUp: Json = {
    index: rest.index,
    followUp: { n: 1, purpose: repairPurpose },
    parentHash: rest.parentHash,
    ...(repaired.candidateHash ? { candidateHash: repaired.candidateHash } : {}),
    batch: rest.batch,
    ...(repaired.diagnosis ? { diagnosis: repaired.diagnosis } : {}),
    ...(repaired.refinement ? { refinement: repaired.refinement } : {}),
    applied: repairAccepted ? rest.applied : combined,
    guardRejections: repaired.guardRejections ?? [],
    ...(repaired.labelFlags ? { labelFlags: repaired.labelFlags } : {}),
    validation: repairStages,
    verdict: repairAccepted ? "accepted" : "rejected",
    reason: repaired.decision?.reason ?? "",
    accuracyAfter: repairAccepted ? rest.accuracyAfter : batch.score.accuracy,
    elapsedMs: rest.elapsedMs,
    traces: [],
  };
  if (!repairAccepted) return [own, followUp];
  // Accepted through its repair: the proposal itself was rejected, and its own edits are the
  // combined ones less those the repair's refinement wrote.
  const repairEdits = ((repaired.refinement as Json | undefined)?.edits as unknown[]) ?? [];
  const written = new Set(repairEdits.map((edit) => JSON.stringify(edit)));
  const ownEdits = combined.filter((edit) => !written.has(JSON.stringify(edit)));
  const rejected = {
    ...own,
    applied: ownEdits,
    verdict: "rejected",
    reason: verdict.reason,
    accuracyAfter: batch.score.accuracy,
  };
  return [rejected, followUp];
}

/** One version 2 stage kind as a self-describing stage. */
function upgradeStage(stage: V2Stage, iterative: boolean): ValidationStage {
  const { stage: kind, decision, ...fields } = stage as V2Stage & Json;
  const common = { ...(fields.candidateHash ? { candidateHash: fields.candidateHash } : {}) };
  const decided = decision ?? { accepted: false, reason: "" };
  const base = common as Partial<ValidationStage>;
  switch (kind) {
    case "cheap":
      return {
        ...base,
        step: iterative ? "minibatch" : "cheap validation",
        role: "screen",
        comparison: fields.comparison,
        decision: decided,
      } as ValidationStage;
    case "full":
      return {
        ...base,
        step: iterative ? "train split" : "full batch",
        role: "verdict",
        comparison: fields.comparison,
        score: fields.score,
        decision: decided,
      } as ValidationStage;
    case "confirm":
      return {
        ...base,
        step: "re-drawn flips",
        role: "verdict",
        draws: fields.comparison,
        decision: decided,
      } as ValidationStage;
    case "pruned":
      return upgradePruned(fields, decided);
    default:
      return upgradeAblated(fields);
  }
}

function upgradePruned(
  fields: Json,
  decision: { accepted: boolean; reason: string },
): ValidationStage {
  const undone = fields.undone === true;
  const changes = (fields.changes as Json[]).map((change) => ({
    edits: change.edits,
    patterns: change.patternNames,
    patternIds: change.patterns,
    kept: undone,
    targets: change.targets,
    reason: change.reason,
  }));
  return {
    step: "pruning",
    role: undone ? "note" : "prune",
    ...(fields.candidateHash ? { candidateHash: fields.candidateHash } : {}),
    ...(fields.comparison ? { comparison: fields.comparison } : {}),
    changes,
    figures: { round: fields.round },
    decision,
  } as ValidationStage;
}

function upgradeAblated(fields: Json): ValidationStage {
  const changes = (fields.changes as Json[]).map((change) => {
    const counts = { fixed: change.fixed as number, broken: change.broken as number };
    return {
      edits: change.edits,
      patterns: change.patterns,
      kept: change.kept,
      reason: helpsAlone(counts).reason,
      ...counts,
      ...(change.unparsable ? { unrun: change.unparsable } : {}),
    };
  }) as NonNullable<ValidationStage["changes"]>;
  return { step: "ablation", role: "retry", changes, decision: ablationRetry(changes) };
}
