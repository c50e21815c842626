import { harnessModuleSchema } from "../../config/harness-schema.js";
import type { Task } from "../../config/task-schema.js";
import type { DiagnosisReport } from "../../diagnose/diagnose-batch.js";
import { extractBatchEvidence } from "../../diagnose/evidence.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { toExample } from "../../diagnose/pattern-examples.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { PlannedEdit } from "../../harness/types.js";
import type { ChatProvider } from "../../llm/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import type { RejectedProposal } from "../../refine/role-schemas.js";
import type { StagePort } from "../stage-port.js";
import { faultOf } from "./fake-world.js";

/** Calls the fake stages received, for assertions. */
export interface FakeStageCalls {
  diagnose: Parameters<StagePort["diagnose"]>[0][];
  refine: { patterns: FailurePattern[]; rejected: RejectedProposal[] }[];
  reflect: {
    /** The minibatch's runs the reflector was shown, passing and failing. */
    records: RolloutRecord[];
    /** Its failing runs. */
    failures: RolloutRecord[];
    rejected: RejectedProposal[];
    /** The call's temperature and seed. */
    sampling?: { temperature?: number; seed?: number };
    harnessHash: string;
    module?: string;
  }[];
}

/** The fake refiner's edit for a fault: the rule `fix:<fault>`, aimed at `patterns`. */
export function ruleEdit(fault: string, patterns: string[]): PlannedEdit {
  return {
    module: "prompt",
    patterns,
    rationale: `recurring failures of kind ${fault}`,
    edit: { kind: "add_rule", text: `fix:${fault}` },
  };
}

/** A refinement record as src/refine returns it, proposing these edits (none: `no-changes`). */
function proposal(options: {
  mode: RefinementRecord["mode"];
  patternIds: string[];
  edits: PlannedEdit[];
}): RefinementRecord {
  const { edits } = options;
  const changes = edits.map((edit) => ({
    module: edit.module,
    change: `add rule '${edit.edit.kind === "add_rule" ? edit.edit.text : ""}'`,
    patterns: edit.patterns,
    expectedEffect: edit.rationale,
    regressionRisks: "",
  }));
  return {
    mode: options.mode,
    patternIds: options.patternIds,
    turns: [
      {
        role: "architect",
        schemaName: "hms",
        round: 0,
        input: `${options.patternIds.length} pattern(s)`,
        evidenceChars: 0,
        output: { changes: changes.length },
      },
    ],
    diagnoses: [],
    rounds: [{ round: 0, hms: { changes }, critique: null }],
    outcome: edits.length > 0 ? "accepted" : "no-changes",
    hms: edits.length > 0 ? { changes } : null,
    rejection: null,
    edits,
    invalidEdits: [],
    droppedEdits: [],
  };
}

/** Failing records grouped by the fault written in their task, as real failure patterns. */
function patternsOf(
  request: Parameters<StagePort["diagnose"]>[0],
  evidence: DiagnosisReport["evidence"],
): FailurePattern[] {
  const tasks = new Map<string, Task>(request.tasks.map((task) => [task.id, task]));
  const records = new Map(request.records.map((record) => [record.key, record]));
  const groups = new Map<string, DiagnosisReport["evidence"]>();
  for (const item of evidence) {
    const fault = faultOf(tasks.get(item.taskId)?.input ?? "");
    groups.set(fault, [...(groups.get(fault) ?? []), { ...item, note: fault, cause: fault }]);
  }
  return [...groups].map(([fault, members]) => {
    const taskIds = [...new Set(members.map((member) => member.taskId))];
    const categoryNames = [...new Set(members.map((member) => member.category))].sort();
    const systematic =
      taskIds.length >= request.minSupport.tasks &&
      categoryNames.length >= request.minSupport.categories;
    return {
      id: `p-${fault}`,
      name: fault,
      description: `tasks failing with ${fault}`,
      module: "prompt",
      namedBy: "fallback",
      groupKeys: [fault],
      signals: [],
      causes: [fault],
      memberKeys: members.map((member) => member.rolloutKey),
      taskIds,
      support: { tasks: taskIds.length, categories: categoryNames.length, categoryNames },
      examples: members.slice(0, 3).map((member) =>
        toExample({
          evidence: member,
          record: records.get(member.rolloutKey),
          task: tasks.get(member.taskId),
        }),
      ),
      kind: systematic ? "systematic" : "model-specific",
      reasons: [
        systematic
          ? { code: "supported", detail: `${taskIds.length} tasks` }
          : taskIds.length <= 1
            ? { code: "singleton", detail: "1 task" }
            : { code: "narrow", detail: `${taskIds.length} tasks` },
      ],
    };
  });
}

function ask(refiner: ChatProvider, content: string, purpose: string) {
  return refiner.chat({ messages: [{ role: "user", content }], purpose });
}

/** The fake refine (a `fix:<pattern>` rule per pattern, or `propose`) and reflect (one per fault shown). */
function fakeRefiners(options: {
  calls: FakeStageCalls;
  propose?: (patterns: FailurePattern[]) => PlannedEdit[];
}): Pick<StagePort, "refine" | "reflect"> {
  const { calls } = options;
  return {
    async refine(request) {
      calls.refine.push({ patterns: request.patterns, rejected: [...request.rejected] });
      const ids = request.patterns.map((pattern) => pattern.id);
      await ask(request.refiner, `refine ${ids.join(",")}`, "refine");
      const edits = options.propose
        ? options.propose(request.patterns)
        : request.patterns.map((pattern) => ruleEdit(pattern.name, [pattern.id]));
      return proposal({ mode: "refine", patternIds: ids, edits });
    },
    async reflect(request) {
      const failures = request.records.filter((record) => !record.verdict.pass);
      calls.reflect.push({
        records: request.records,
        failures,
        rejected: [...request.rejected],
        sampling: request.sampling,
        harnessHash: request.harness.hash,
        module: request.module,
      });
      const keys = failures.map((record) => record.key).join(",");
      await ask(request.refiner, `reflect ${keys}`, "reflect");
      const faults = [...new Set(request.tasks.map((task) => faultOf(task.input)))];
      const failing = failures.map((record) => record.taskId);
      // Asked to change one module (the iterative baseline's round-robin), it labels its edits so.
      const module = harnessModuleSchema.safeParse(request.module);
      const edits = faults.map((fault) => ({
        ...ruleEdit(fault, failing),
        ...(module.success ? { module: module.data } : {}),
      }));
      return proposal({ mode: "reflect", patternIds: [], edits });
    },
  };
}

/**
 * A `StagePort` double over the fake world: diagnosis groups failing rollouts by the fault
 * written in the task (systematic when the pattern spans at least `minSupport` tasks and
 * categories, else model-specific `singleton` or `narrow`; the deterministic evidence is src/diagnose's own)
 * and announces its systematic patterns as supported first (or `supported(systematic)`);
 * refinement proposes the rule `fix:<pattern name>` for each pattern it is given (or
 * `propose(patterns)` when set). Each fake makes one refiner call so call counting sees them.
 * Records every call.
 */
export function fakeStages(
  options: {
    propose?: (patterns: FailurePattern[]) => PlannedEdit[];
    /** What the diagnosis announces before classifying (default: every pattern as classified). */
    supported?: (systematic: FailurePattern[]) => FailurePattern[];
  } = {},
): { stages: StagePort; calls: FakeStageCalls } {
  const calls: FakeStageCalls = { diagnose: [], refine: [], reflect: [] };
  const stages: StagePort = {
    async diagnose(request) {
      calls.diagnose.push(request);
      const keys = request.records.map((record) => record.key).join(",");
      await ask(request.refiner, `diagnose ${keys}`, "diagnose");
      const evidence = extractBatchEvidence({ records: request.records, tasks: request.tasks });
      const patterns = patternsOf(request, evidence);
      const systematic = patterns.filter((pattern) => pattern.kind === "systematic");
      request.onSupported?.(options.supported?.(systematic) ?? patterns);
      return { evidence, patterns };
    },
    ...fakeRefiners({ calls, propose: options.propose }),
  };
  return { stages, calls };
}
