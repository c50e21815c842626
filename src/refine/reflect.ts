import type { Task } from "../config/task-schema.js";
import { extractEvidence } from "../diagnose/evidence.js";
import { type FailurePattern, patternId } from "../diagnose/failure-pattern.js";
import { refuseHeldout } from "../diagnose/heldout-guard.js";
import { spreadMembers, toExample } from "../diagnose/pattern-examples.js";
import type { RolloutRecord } from "../eval/types.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { collaborate } from "./collaborate.js";
import type { RefinementRecord } from "./refinement-record.js";
import type { RejectedProposal } from "./role-schemas.js";

/** The single "pattern" the iterative reflector sees: its failures, support = their count. */
export function minibatchPattern(options: {
  failures: RolloutRecord[];
  tasks: Task[];
  /** The module the reflection is asked to change (GEPA's selected component); default prompt. */
  module?: FailurePattern["module"];
}): FailurePattern {
  const tasks = new Map(options.tasks.map((task) => [task.id, task]));
  const records = new Map(options.failures.map((record) => [record.key, record]));
  const evidence = options.failures.map((record, index) =>
    extractEvidence({ record, task: tasks.get(record.taskId), id: `f${index + 1}` }),
  );
  const taskIds = [...new Set(options.failures.map((record) => record.taskId))].sort();
  const categoryNames = [...new Set(options.failures.map((record) => record.category))].sort();
  const signals = [...new Set(evidence.flatMap((item) => item.signals))].sort();
  return {
    id: patternId(options.failures.map((record) => record.key)),
    name: "observed-failure",
    description: `The failure(s) observed in this minibatch (${options.failures.length} run(s)), showing ${signals.join(", ") || "no runtime signal"}.`,
    module: options.module ?? "prompt",
    namedBy: "fallback",
    groupKeys: [],
    signals,
    causes: [],
    memberKeys: options.failures.map((record) => record.key).sort(),
    taskIds,
    support: { tasks: options.failures.length, categories: categoryNames.length, categoryNames },
    examples: spreadMembers(evidence).map((item) =>
      toExample({
        evidence: item,
        record: records.get(item.rolloutKey),
        task: tasks.get(item.taskId),
      }),
    ),
    kind: "systematic",
    reasons: [{ code: "untested", detail: "iterative baseline: failures are not classified" }],
  };
}

/**
 * The iterative baseline's reflector: the same Diagnostician, Architect and Editor templates as
 * `refine`, no Skeptic, fed with one pattern made of the given failures. Only the evidence differs.
 */
export async function reflect(options: {
  failures: RolloutRecord[];
  tasks: Task[];
  harness: LoadedHarness;
  refiner: ChatProvider;
  rejected: RejectedProposal[];
  /** Globs the edits may touch (default: the config's default `harness.editable`). */
  editable?: string[];
  /** Held-out tasks, only to refuse failures drawn from them. */
  heldout?: Task[];
  /** The module the reflection is asked to change (the iterative baseline's selected component). */
  module?: FailurePattern["module"];
}): Promise<RefinementRecord> {
  const failingIds = new Set(options.failures.map((record) => record.taskId));
  refuseHeldout({
    heldout: options.heldout,
    taskIds: [...failingIds],
    // The texts the roles would see: a held-out task under another id is refused too.
    inputs: options.tasks.filter((task) => failingIds.has(task.id)).map((task) => task.input),
    stage: "reflect",
  });
  const failed = options.failures.filter((record) => !record.verdict.pass);
  return collaborate({
    mode: "reflect",
    patterns:
      failed.length === 0
        ? []
        : [minibatchPattern({ failures: failed, tasks: options.tasks, module: options.module })],
    harness: options.harness,
    refiner: options.refiner,
    rejected: options.rejected,
    editable: options.editable,
    review: null,
  });
}
