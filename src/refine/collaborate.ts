import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { runArchitect } from "./architect.js";
import { runDiagnostician } from "./diagnostician.js";
import { runEditor } from "./editor.js";
import { type HarnessView, harnessView } from "./harness-view.js";
import type { DebateRound, RefinementRecord, RoleTurn } from "./refinement-record.js";
import { RoleOutputUnusable } from "./role-call.js";
import type { Critique, Diagnosis, Hms, RejectedProposal } from "./role-schemas.js";
import { runSkeptic } from "./skeptic.js";

type Draft = Omit<
  RefinementRecord,
  "outcome" | "hms" | "rejection" | "edits" | "invalidEdits" | "droppedEdits"
>;

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
  /** Draft the Editor's edits while the Skeptic reviews (see `refine`); default off. */
  speculativeEditor?: boolean;
  /** Globs the edits may touch (shown to every role; the Editor sees those files). */
  editable?: string[];
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
  const summary = harnessView(options.harness, { role: "analysis", editable: options.editable });
  try {
    draft.diagnoses = await runDiagnostician({
      refiner: options.refiner,
      turns,
      patterns: options.patterns,
      harness: summary,
      rejected: options.rejected,
    });
    const draftEdits = editorDrafter(options);
    const debated = await debate({
      ...options,
      turns,
      diagnoses: draft.diagnoses,
      summary,
      rounds: draft.rounds,
      draftEdits,
    });
    if (debated.outcome !== "accepted") return finish(draft, debated);
    return finish(draft, await acceptedEdits({ debated, draftEdits, turns }));
  } catch (error) {
    if (!(error instanceof RoleOutputUnusable)) throw error;
    return finish(draft, {
      outcome: "failed",
      rejection: { reason: error.message, objections: [] },
    });
  }
}

/** The Editor's reply to one HMS (or its error), with its own turns. */
type DraftedEdits = {
  turns: RoleTurn[];
  result?: Awaited<ReturnType<typeof runEditor>>;
  error?: unknown;
};

type Debated =
  | { outcome: "accepted"; hms: Hms; drafted?: DraftedEdits }
  | { outcome: "rejected"; hms: Hms; rejection: Rejection }
  | { outcome: "no-changes" };

type Rejection = { reason: string; objections: Critique["objections"] };

/**
 * Runs the Editor on an HMS with turns of its own, its error kept as a value: a speculative
 * draft may be discarded, and its turns must reach the record either way.
 */
function editorDrafter(options: {
  refiner: ChatProvider;
  harness: LoadedHarness;
  editable?: string[];
}): (hms: Hms) => Promise<DraftedEdits> {
  return async (hms) => {
    const turns: RoleTurn[] = [];
    try {
      return {
        turns,
        result: await runEditor({
          refiner: options.refiner,
          turns,
          hms,
          harness: options.harness,
          editable: options.editable,
        }),
      };
    } catch (error) {
      return { turns, error };
    }
  };
}

/** The accepted HMS's edits: the speculative draft when there is one, else a fresh Editor call. */
async function acceptedEdits(options: {
  debated: Extract<Debated, { outcome: "accepted" }>;
  draftEdits: (hms: Hms) => Promise<DraftedEdits>;
  turns: RoleTurn[];
}): Promise<Partial<RefinementRecord> & Pick<RefinementRecord, "outcome">> {
  const { debated } = options;
  const drafted = debated.drafted ?? (await options.draftEdits(debated.hms));
  options.turns.push(...drafted.turns);
  if (!drafted.result) throw drafted.error;
  const { edits, invalid, dropped } = drafted.result;
  return {
    outcome: "accepted",
    hms: debated.hms,
    edits,
    invalidEdits: invalid,
    droppedEdits: dropped,
  };
}

type DebateOptions = {
  patterns: FailurePattern[];
  refiner: ChatProvider;
  turns: RoleTurn[];
  rejected: RejectedProposal[];
  review: { rounds: number } | null;
  diagnoses: Diagnosis[];
  summary: HarnessView;
  rounds: DebateRound[];
  /** Drafts the Editor's edits for an HMS; run alongside the Skeptic's review when speculative. */
  draftEdits: (hms: Hms) => Promise<DraftedEdits>;
  speculativeEditor?: boolean;
};

async function debate(options: DebateOptions): Promise<Debated> {
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
    const { critique, drafted } = await review(options, { hms, round });
    options.rounds.push({ round, hms, critique });
    if (critique.verdict === "accept") return { outcome: "accepted", hms, drafted };
    discardDraft(options.turns, drafted);
    const rejection = rejectionOf(critique, { round, maxRevisions });
    if (rejection) return { outcome: "rejected", hms, rejection };
    previous = hms;
    objections = critique.objections;
  }
}

/**
 * The Skeptic's critique of one HMS. Speculative: the Editor drafts while the Skeptic reviews:
 * the Skeptic usually accepts, and then the edits are ready one role call sooner. A draft for an
 * HMS that is sent back is discarded (its call stays in the record, marked).
 */
async function review(
  options: DebateOptions,
  { hms, round }: { hms: Hms; round: number },
): Promise<{ critique: Critique; drafted?: DraftedEdits }> {
  // Both settle before anything returns or throws: a failed Skeptic call neither leaves the
  // draft running past the refinement nor drops the turns from the record.
  const skepticTurns: RoleTurn[] = [];
  const [skeptic, drafted] = await Promise.all([
    runSkeptic({ ...options, harness: options.summary, turns: skepticTurns, hms, round }).then(
      (critique) => ({ critique }),
      (error: unknown) => ({ error }),
    ),
    options.speculativeEditor ? options.draftEdits(hms) : undefined,
  ]);
  options.turns.push(...skepticTurns);
  if ("error" in skeptic) {
    discardDraft(options.turns, drafted);
    throw skeptic.error;
  }
  return { critique: skeptic.critique, drafted };
}

/** Records a speculative draft's turns, marked, when the Skeptic did not accept its HMS. */
function discardDraft(turns: RoleTurn[], drafted: DraftedEdits | undefined): void {
  turns.push(
    ...(drafted?.turns ?? []).map((turn) => ({
      ...turn,
      error: "speculative draft discarded: the Skeptic did not accept this HMS",
    })),
  );
}

/** Why a contested HMS ends the debate, or null when the Architect may revise it once more. */
function rejectionOf(
  critique: Critique,
  { round, maxRevisions }: { round: number; maxRevisions: number },
): Rejection | null {
  if (critique.verdict === "reject") {
    return { reason: "the Skeptic rejected the HMS", objections: critique.objections };
  }
  if (round >= maxRevisions) {
    return {
      reason: `still contested after ${maxRevisions} revision round(s)`,
      objections: critique.objections,
    };
  }
  return null;
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
    droppedEdits: result.droppedEdits ?? [],
  };
}
