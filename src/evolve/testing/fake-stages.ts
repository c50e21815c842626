import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { PlannedEdit } from "../../harness/types.js";
import type { DiagnoseOptions, EvolveDeps } from "../deps.js";
import { realDeps } from "../real-deps.js";
import type { PatternView, RefinementView, RejectedProposalView } from "../stage-views.js";
import { fakeAgentAdapter, faultOf } from "./fake-world.js";

/** Calls the fake stages received, for assertions. */
export interface FakeStageCalls {
  diagnose: DiagnoseOptions[];
  /** Keys of the records noted ahead of their diagnosis. */
  notes: string[];
  refine: { patterns: PatternView[]; rejected: RejectedProposalView[] }[];
  reflect: { failures: RolloutRecord[]; rejected: RejectedProposalView[] }[];
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

function proposal(edits: PlannedEdit[]): RefinementView {
  return {
    verdict: edits.length > 0 ? "accepted" : "rejected",
    reason: edits.length > 0 ? undefined : "no-changes",
    hmsSummary: edits
      .map((edit) => `prompt: add rule '${edit.edit.kind === "add_rule" ? edit.edit.text : ""}'`)
      .join("; "),
    hms: {
      changes: edits.map((edit) => ({
        module: edit.module,
        change: edit.rationale,
        patterns: edit.patterns,
      })),
    },
    rounds: 1,
    roles: [{ role: "architect", round: 1, output: { changes: edits.length } }],
    edits,
  };
}

/**
 * The real eval, harness and call-cache stages with fake diagnosis and refinement: diagnosis
 * groups failing rollouts by the fault written in the task (systematic when the pattern spans at
 * least `minSupport.tasks` tasks, else model-specific `singleton`) and announces its systematic
 * patterns as supported first (or `supported(systematic)`); refinement proposes the rule
 * `fix:<pattern name>` for each pattern it is given (or `propose(patterns)` when set). Each fake
 * makes one refiner call so call counting sees them. Records every call.
 */
export function fakeStages(
  options: {
    propose?: (patterns: PatternView[]) => PlannedEdit[];
    /** What the diagnosis announces as supported before classifying (default: its systematic patterns). */
    supported?: (systematic: PatternView[]) => PatternView[];
  } = {},
): { deps: EvolveDeps; calls: FakeStageCalls } {
  const calls: FakeStageCalls = {
    diagnose: [],
    notes: [],
    refine: [],
    reflect: [],
  };
  const deps: EvolveDeps = {
    ...realDeps,
    createAdapter: () => fakeAgentAdapter,
    openModels: () => Promise.reject(new Error("fakeStages: pass models to runEvolve")),
    async diagnose(request) {
      calls.diagnose.push(request);
      await request.refiner.chat({
        messages: [
          {
            role: "user",
            content: `diagnose ${request.records.map((record) => record.key).join(",")}`,
          },
        ],
        purpose: "diagnose",
      });
      const inputs = new Map<string, Task>(request.tasks.map((task) => [task.id, task]));
      const groups = new Map<string, RolloutRecord[]>();
      for (const record of request.records.filter((rollout) => !rollout.verdict.pass)) {
        const fault = faultOf(inputs.get(record.taskId)?.input ?? "");
        groups.set(fault, [...(groups.get(fault) ?? []), record]);
      }
      const patterns: PatternView[] = [...groups].map(([fault, members]) => {
        const taskIds = [...new Set(members.map((member) => member.taskId))];
        const categoryNames = [...new Set(members.map((member) => member.category))].sort();
        const systematic =
          taskIds.length >= request.minSupport.tasks &&
          categoryNames.length >= request.minSupport.categories;
        return {
          id: `p-${fault}`,
          name: fault,
          description: `tasks failing with ${fault}`,
          kind: systematic ? "systematic" : "model-specific",
          reasons: [systematic ? "supported" : "singleton"],
          support: { tasks: taskIds.length, categories: categoryNames.length, categoryNames },
          taskIds,
          memberKeys: members.map((member) => member.key),
          examples: members
            .slice(0, 3)
            .map((member) => ({ taskId: member.taskId, rolloutKey: member.key, note: fault })),
        };
      });
      const systematic = patterns.filter((pattern) => pattern.kind === "systematic");
      request.onSupported?.(options.supported?.(systematic) ?? systematic);
      return { patterns, evidenceCount: request.records.length };
    },
    async noteFailure(request) {
      calls.notes.push(request.record.key);
      await request.refiner.chat({
        messages: [{ role: "user", content: `note ${request.record.key}` }],
        purpose: "failure-notes",
      });
    },

    async refine(request) {
      calls.refine.push({ patterns: request.patterns, rejected: [...request.rejected] });
      await request.refiner.chat({
        messages: [
          {
            role: "user",
            content: `refine ${request.patterns.map((pattern) => pattern.id).join(",")}`,
          },
        ],
        purpose: "refine",
      });
      return proposal(
        options.propose
          ? options.propose(request.patterns)
          : request.patterns.map((pattern) => ruleEdit(pattern.name, [pattern.id])),
      );
    },
    async reflect(request) {
      calls.reflect.push({ failures: request.failures, rejected: [...request.rejected] });
      await request.refiner.chat({
        messages: [
          {
            role: "user",
            content: `reflect ${request.failures.map((record) => record.key).join(",")}`,
          },
        ],
        purpose: "reflect",
      });
      const faults = [...new Set(request.tasks.map((task) => faultOf(task.input)))];
      return proposal(
        faults.map((fault) =>
          ruleEdit(
            fault,
            request.failures.map((record) => record.taskId),
          ),
        ),
      );
    },
  };
  return { deps, calls };
}
