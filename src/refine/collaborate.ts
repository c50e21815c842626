import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { runArchitect } from "./architect.js";
import { runDiagnostician } from "./diagnostician.js";
import { runEditor } from "./editor.js";
import { summariseHarness } from "./harness-summary.js";
import type { DebateRound, RefinementRecord, RoleTurn } from "./refinement-record.js";
import { RoleOutputUnusable } from "./role-call.js";
import type { Critique, Diagnosis, Hms, RejectedProposal } from "./role-schemas.js";
import { runSkeptic } from "./skeptic.js";

type Draft = Omit<RefinementRecord, "outcome" | "hms" | "rejection" | "edits" | "invalidEdits">;

/**
 * The role sequence both strategies share: Diagnostician → Architect ⇄ Skeptic → Editor.
 * `review: null` skips the Skeptic (the iterative baseline's reflector); otherwise the Skeptic
 * may send the HMS back up to `review.rounds` times before it is dropped.
 */
export async function collaborate(options: {
  mode: RefinementRecord["mode"];
  patterns: FailurePattern[];
  harness: LoadedHarness;
  refiner: ChatProvider;
  rejected: RejectedProposal[];
  review: { rounds: number } | null;
}): Promise<RefinementRecord> {
  const turns: RoleTurn[] = [];
  const draft: Draft = {
    mode: options.mode,
    patternIds: options.patterns.map((pattern) => pattern.id),
    turns,
    diagnoses: [],
    rounds: [],
  };
  if (options.patterns.length === 0) return finish(draft, { outcome: "no-patterns" });
  const summary = summariseHarness(options.harness);
  const common = { refiner: options.refiner, turns };
  try {
    draft.diagnoses = await runDiagnostician({
      ...common,
      patterns: options.patterns,
      harness: summary,
      rejected: options.rejected,
    });
    const debated = await debate({
      ...options,
      ...common,
      diagnoses: draft.diagnoses,
      summary,
      rounds: draft.rounds,
    });
    if (debated.outcome !== "accepted") return finish(draft, debated);
    const { edits, invalid } = await runEditor({
      ...common,
      hms: debated.hms,
      harness: summariseHarness(options.harness, { withFiles: true }),
    });
    return finish(draft, { outcome: "accepted", hms: debated.hms, edits, invalidEdits: invalid });
  } catch (error) {
    if (!(error instanceof RoleOutputUnusable)) throw error;
    return finish(draft, {
      outcome: "failed",
      rejection: { reason: error.message, objections: [] },
    });
  }
}

type Debated =
  | { outcome: "accepted"; hms: Hms }
  | {
      outcome: "rejected";
      hms: Hms;
      rejection: { reason: string; objections: Critique["objections"] };
    }
  | { outcome: "no-changes" };

async function debate(options: {
  patterns: FailurePattern[];
  refiner: ChatProvider;
  turns: RoleTurn[];
  rejected: RejectedProposal[];
  review: { rounds: number } | null;
  diagnoses: Diagnosis[];
  summary: ReturnType<typeof summariseHarness>;
  rounds: DebateRound[];
}): Promise<Debated> {
  let previous: Hms | undefined;
  let objections: Critique["objections"] = [];
  const maxRevisions = Math.max(0, options.review?.rounds ?? 0);
  for (let round = 0; ; round++) {
    const hms = await runArchitect({
      ...options,
      harness: options.summary,
      previous,
      objections,
      round,
    });
    if (hms.changes.length === 0) {
      options.rounds.push({ round, hms, critique: null });
      return { outcome: "no-changes" };
    }
    if (!options.review) {
      options.rounds.push({ round, hms, critique: null });
      return { outcome: "accepted", hms };
    }
    const critique = await runSkeptic({ ...options, hms, round });
    options.rounds.push({ round, hms, critique });
    if (critique.verdict === "accept") return { outcome: "accepted", hms };
    if (critique.verdict === "reject") {
      return {
        outcome: "rejected",
        hms,
        rejection: { reason: "the Skeptic rejected the HMS", objections: critique.objections },
      };
    }
    if (round >= maxRevisions) {
      return {
        outcome: "rejected",
        hms,
        rejection: {
          reason: `still contested after ${maxRevisions} revision round(s)`,
          objections: critique.objections,
        },
      };
    }
    previous = hms;
    objections = critique.objections;
  }
}

function finish(
  draft: Draft,
  result: Partial<RefinementRecord> & Pick<RefinementRecord, "outcome">,
): RefinementRecord {
  return {
    ...draft,
    outcome: result.outcome,
    hms: result.hms ?? null,
    rejection: result.rejection
      ? {
          reason: result.rejection.reason,
          objections: result.rejection.objections.map(({ change, reason }) => ({ change, reason })),
        }
      : null,
    edits: result.edits ?? [],
    invalidEdits: result.invalidEdits ?? [],
  };
}
