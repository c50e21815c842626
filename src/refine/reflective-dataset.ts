import type { Task } from "../config/task-schema.js";
import { extractEvidence } from "../diagnose/evidence.js";
import { type FailurePattern, patternId } from "../diagnose/failure-pattern.js";
import { spreadMembers, toExample } from "../diagnose/pattern-examples.js";
import type { RolloutRecord } from "../eval/types.js";

/** The single "pattern" the iterative reflector is asked about: its failures, support = their count. */
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
 * GEPA's reflective dataset (`make_reflective_dataset`, gepa-ai/gepa
 * `adapters/default_adapter/default_adapter.py`: every trajectory of the minibatch with its
 * inputs, outputs and feedback): each run of the minibatch — passing and failing, in order — as
 * the reflector is shown it. The feedback is the scorer's verdict and, for a failure, the
 * deterministic signals read from its trace; never the expected answer (no refiner role sees
 * one). Texts are bounded and marked untrusted by `toExample`.
 */
export function reflectiveDataset(options: { records: RolloutRecord[]; tasks: Task[] }) {
  const tasks = new Map(options.tasks.map((task) => [task.id, task]));
  return options.records.map((record, index) => {
    const task = tasks.get(record.taskId);
    const evidence = extractEvidence({ record, task, id: `r${index + 1}` });
    const example = toExample({ evidence, record, task });
    const passed = record.verdict.pass;
    return {
      run: evidence.id,
      category: example.category,
      task: example.task,
      output: example.output,
      answer: example.answer,
      events: example.events,
      toolCalls: example.toolCalls,
      pass: passed,
      feedback: {
        score: record.verdict.score,
        verdict: record.verdict.reason,
        ...(passed ? {} : { signals: evidence.signals }),
      },
    };
  });
}
