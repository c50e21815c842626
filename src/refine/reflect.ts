import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import { refuseHeldout } from "../diagnose/heldout-guard.js";
import type { RolloutRecord } from "../eval/types.js";
import type { LoadedHarness, PlannedEdit } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { EditComposer } from "./compose-edits.js";
import { coerceEditsReply } from "./edit-coercion.js";
import { type EditContext, salvageEdits, validatedEditSchema } from "./edit-validation.js";
import { harnessView } from "./harness-view.js";
import { reflectorTemplate } from "./prompts/reflector.js";
import type { DroppedEdit, RefinementRecord, RoleTurn } from "./refinement-record.js";
import { minibatchPattern, reflectiveDataset } from "./reflective-dataset.js";
import { callRole, RoleOutputUnusable } from "./role-call.js";
import { rejectedForRoles } from "./role-evidence.js";
import {
  diagnosisSchema,
  type Hms,
  type RejectedProposal,
  roleJsonSchemas,
} from "./role-schemas.js";

export { minibatchPattern } from "./reflective-dataset.js";

type Reply = {
  diagnoses: { rootCause: string; module: string }[];
  edits: PlannedEdit[];
  invalid: { edit: unknown; issues: string }[];
};

/** The reflection reply: lenient diagnoses, every edit validated as the Editor's are. */
function reflectionReplySchema(context: EditContext) {
  const diagnosis = z
    .object({ rootCause: z.string().default(""), module: z.string().default("prompt") })
    .loose();
  return z
    .preprocess(
      coerceEditsReply,
      z.object({
        diagnoses: z.array(diagnosis).catch([]).default([]),
        edits: z.array(validatedEditSchema(context)),
      }),
    )
    .transform((value): Reply => ({ ...value, invalid: [] }));
}

/**
 * The iterative baseline's reflector, as GEPA reflects (gepa-ai/gepa
 * `proposer/reflective_mutation/reflective_mutation.py` → `strategies/instruction_proposal.py`):
 * ONE call to the refiner, shown the whole minibatch — its passing runs as well as its failing
 * ones, each with its feedback (`reflectiveDataset`) — and the harness, asked for the diagnosis
 * and the edits in one reply, sampled at `sampling.temperature` with `sampling.seed` (a fresh
 * seed per call makes a re-asked reflection a fresh sample, never a cache replay). The edits are
 * validated against the harness shown, with chatJson's repairs, exactly as the Editor's
 * (`validatedEditSchema`), and composed so none undoes another; the caller guards them. No call
 * when the minibatch has no failure (GEPA skips a perfect minibatch).
 */
export async function reflect(options: {
  /** The parent's runs on the minibatch, passing and failing. */
  records: RolloutRecord[];
  tasks: Task[];
  harness: LoadedHarness;
  refiner: ChatProvider;
  rejected: RejectedProposal[];
  /** Globs the edits may touch (default: the config's default `harness.editable`). */
  editable?: string[];
  /** Held-out tasks, only to refuse runs drawn from them. */
  heldout?: Task[];
  /** The module the reflection is asked to change (the iterative baseline's selected component). */
  module?: FailurePattern["module"];
  /** The call's temperature and seed (evolve.iterative.reflectionTemperature, a seed per call). */
  sampling?: { temperature?: number; seed?: number };
}): Promise<RefinementRecord> {
  const ids = new Set(options.records.map((record) => record.taskId));
  refuseHeldout({
    heldout: options.heldout,
    taskIds: [...ids],
    // The texts the reflector would see: a held-out task under another id is refused too.
    inputs: options.tasks.filter((task) => ids.has(task.id)).map((task) => task.input),
    stage: "reflect",
  });
  const failing = options.records.filter((record) => !record.verdict.pass);
  const turns: RoleTurn[] = [];
  const empty = { mode: "reflect" as const, turns, diagnoses: [], rounds: [], hms: null };
  const none = { edits: [], invalidEdits: [], droppedEdits: [], rejection: null };
  if (failing.length === 0) return { ...empty, ...none, patternIds: [], outcome: "no-patterns" };
  const pattern = minibatchPattern({
    failures: failing,
    tasks: options.tasks,
    module: options.module,
  });
  try {
    const reply = await askReflector({ ...options, pattern, turns });
    return recordOf({ reply, pattern, harness: options.harness, turns });
  } catch (error) {
    if (!(error instanceof RoleOutputUnusable)) throw error;
    return {
      ...empty,
      ...none,
      patternIds: [pattern.id],
      outcome: "failed",
      rejection: { reason: error.message, objections: [] },
    };
  }
}

/** The one reflection call: the reflective dataset, the harness as the Editor sees it, the rejections. */
function askReflector(
  options: Parameters<typeof reflect>[0] & { pattern: FailurePattern; turns: RoleTurn[] },
): Promise<Reply> {
  const view = harnessView(options.harness, { role: "editor", editable: options.editable });
  const context: EditContext = {
    view,
    defaults: { module: options.module ?? "prompt", patterns: [options.pattern.id] },
  };
  const failing = options.pattern.support.tasks;
  return callRole<Reply>({
    refiner: options.refiner,
    role: "reflector",
    schemaName: "reflection",
    template: reflectorTemplate,
    evidence: {
      ...(options.module ? { component: options.module } : {}),
      minibatch: reflectiveDataset({ records: options.records, tasks: options.tasks }),
      harness: view,
      rejected: rejectedForRoles(options.rejected),
    },
    jsonSchema: roleJsonSchemas.reflection,
    schema: reflectionReplySchema(context),
    round: 0,
    summary: `${options.records.length} run(s), ${failing} failing, ${options.rejected.length} rejected proposal(s)${options.module ? `, component ${options.module}` : ""}`,
    turns: options.turns,
    sampling: options.sampling,
    salvage: (candidates) => {
      for (const candidate of candidates) {
        const salvaged = salvageEdits(candidate, context);
        if (salvaged) return { diagnoses: [], ...salvaged };
      }
      return undefined;
    },
  });
}

/** The reply as a refinement record: its edits composed in order, each one left out listed with why. */
function recordOf(options: {
  reply: Reply;
  pattern: FailurePattern;
  harness: LoadedHarness;
  turns: RoleTurn[];
}): RefinementRecord {
  const { reply, pattern } = options;
  const dropped: DroppedEdit[] = reply.invalid.map((invalid) => ({
    change: null,
    stage: "invalid",
    reason: invalid.issues,
    edit: invalid.edit,
  }));
  const composer = new EditComposer(options.harness);
  const edits: PlannedEdit[] = [];
  for (const [index, edit] of reply.edits.entries()) {
    const composed = composer.add(index, [edit], { commit: true });
    edits.push(...composed.accepted);
    for (const conflict of composed.conflicts)
      dropped.push({
        change: index,
        stage: "refused",
        reason: conflict.reason,
        edit: conflict.edit,
      });
  }
  const hms: Hms = { changes: edits.map(changeOf) };
  return {
    mode: "reflect",
    patternIds: [pattern.id],
    turns: options.turns,
    diagnoses: reply.diagnoses.map((diagnosis) =>
      diagnosisSchema.parse({ ...diagnosis, patternId: pattern.id }),
    ),
    rounds: [{ round: 0, hms, critique: null }],
    outcome: edits.length > 0 ? "accepted" : "no-changes",
    hms: edits.length > 0 ? hms : null,
    rejection: null,
    edits,
    invalidEdits: reply.invalid,
    droppedEdits: dropped,
  };
}

/** One edit as an HMS change (what reports and later reflections are shown of it). */
function changeOf(planned: PlannedEdit): Hms["changes"][number] {
  return {
    module: planned.module,
    change: editInWords(planned.edit),
    patterns: planned.patterns,
    expectedEffect: planned.rationale,
    regressionRisks: "",
  };
}

function editInWords(edit: PlannedEdit["edit"]): string {
  switch (edit.kind) {
    case "set":
      return `set ${edit.path} to ${JSON.stringify(edit.value)}`;
    case "add_rule":
      return `add rule: ${edit.text}`;
    case "remove_rule":
      return `remove rule: ${edit.text}`;
    case "replace_text":
      return `in ${edit.file}, replace ${JSON.stringify(edit.find.slice(0, 120))} with ${JSON.stringify(edit.replace.slice(0, 400))}`;
    case "write_file":
      return `write ${edit.file}: ${JSON.stringify(edit.content.slice(0, 400))}`;
  }
}
