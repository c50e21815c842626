import { draw } from "../draw.js";
import { recognise } from "../families/recognise.js";
import type { World } from "../world-schema.js";
import {
  type Cause,
  canonicalCause,
  classifyFailure,
  isObject,
  type JsonObject,
  list,
  majority,
  objects,
  text,
} from "./evidence.js";
import { correctFix, type Fix, genericFix, itemHintFix } from "./fixes.js";

const notes: Record<Cause, string> = {
  "step-budget-exhausted": "The run was cut at the step limit before the lookups were finished.",
  "answer-format-drift":
    "The reply gave the result in prose without an 'Answer:' line, so no answer was extracted.",
  "gave-up-after-tool-error":
    "A tool call failed and the agent gave up instead of correcting the call.",
  "task-lost-in-context":
    "The agent said it could not see the question: the task statement had been dropped from the context.",
  "arithmetic-slip": "The arithmetic was done without a calculator and the number is off.",
  "unknown-task":
    "The model said it does not know how to do this task: a task outside what it can solve, not a runtime fault.",
  "wrong-answer": "The answer is wrong with no runtime signal that explains it.",
};

/** `failure_notes`: one note and cause label per failure, read from its signals. */
export function failureNotes(block: JsonObject): JsonObject {
  return {
    notes: objects(block.failures).map((failure) => {
      const cause = classifyFailure(failure);
      return { id: text(failure.id), note: notes[cause], cause };
    }),
  };
}

/** `pattern_merge`: groups with the same underlying cause become one pattern. */
export function patternMerge(block: JsonObject): JsonObject {
  const byCause = new Map<Cause, JsonObject[]>();
  for (const group of objects(block.groups)) {
    const labels = [...list(group.causes), ...list(group.signals)].map(text).filter(Boolean);
    const cause =
      majority(list(group.causes).map((label) => canonicalCause(text(label)))) ??
      canonicalCause(labels.join(" "));
    byCause.set(cause, [...(byCause.get(cause) ?? []), group]);
  }
  return {
    patterns: [...byCause.entries()].map(([cause, groups]) => ({
      name: cause,
      description: notes[cause],
      groupKeys: groups.map((group) => text(group.key)),
      module: correctFix(cause, undefined).module,
    })),
  };
}

/** Chance that a diagnosis backed by n instances finds the real cause. */
export function diagnosisAccuracy(world: World, n: number): number {
  const { accuracyAtOne, accuracyAtMany, instancesForMany, neutral } = world.refiner;
  if (neutral || n >= instancesForMany) return accuracyAtMany;
  if (n <= 1 || instancesForMany <= 1) return accuracyAtOne;
  return accuracyAtOne + ((accuracyAtMany - accuracyAtOne) * (n - 1)) / (instancesForMany - 1);
}

/** `diagnosis`: per pattern, the right fix with an accuracy that grows with the evidence count. */
export function diagnosis(world: World, block: JsonObject, seed: number): JsonObject {
  const harness = isObject(block.harness) ? block.harness : {};
  // Like a model told what was tried and failed: it avoids proposing a rejected change again,
  // and a prompt that lists other rejections is another prompt (another draw).
  const rejectedChanges = objects(block.rejected).flatMap((proposal) =>
    objects(proposal.changes).map((change) => text(change.change)),
  );
  return {
    diagnoses: objects(block.patterns).map((pattern) => {
      const examples = objects(pattern.examples);
      const support = isObject(pattern.support) ? Number(pattern.support.tasks) || 0 : 0;
      const n = Math.max(examples.length, support);
      const causes = examples.map((example) => classifyFailure(example, harness.config));
      const cause =
        majority(causes) ?? canonicalCause(`${text(pattern.name)} ${text(pattern.description)}`);
      const key = [
        world.seed,
        "diagnosis",
        text(pattern.id),
        ...examples.map((example) => text(example.task)),
        seed,
        ...rejectedChanges,
      ];
      const fix = chooseUnrejectedFix(
        { world, cause, n, key, example: examples[0], config: harness.config },
        rejectedChanges,
      );
      return {
        patternId: text(pattern.id),
        rootCause: fix.change ? `${fix.explanation}. Fix: ${fix.change}` : `${fix.explanation}.`,
        module: fix.module,
        confidence: fix.change ? Number(Math.min(0.95, 0.5 + 0.1 * n).toFixed(2)) : 0.2,
      };
    }),
  };
}

/** Draws a fix, re-thinking (a fresh draw) when the first idea is one that was already rejected. */
function chooseUnrejectedFix(options: Parameters<typeof chooseFix>[0], rejected: string[]): Fix {
  let fix = chooseFix(options);
  for (let attempt = 1; attempt <= 3 && fix.change && rejected.includes(fix.change); attempt++)
    fix = chooseFix({ ...options, key: [...options.key, "rethink", attempt] });
  if (fix.change && rejected.includes(fix.change))
    return {
      module: fix.module,
      explanation: "Every fix I can see was already tried and rejected",
      change: null,
    };
  return fix;
}

function chooseFix(options: {
  world: World;
  cause: Cause;
  n: number;
  key: (string | number)[];
  example: JsonObject | undefined;
  config: JsonObject[string] | undefined;
}): Fix {
  const { world, cause, n, key, example, config } = options;
  const plainWrong = cause === "wrong-answer" || cause === "arithmetic-slip";
  const keyPhrase = example ? recognise(text(example.task))?.keyPhrase : undefined;
  const hintTendency = world.refiner.neutral ? 0 : world.refiner.hintTendencyAtOne;
  if (n <= 1 && plainWrong && keyPhrase && draw(...key, "hint") < hintTendency)
    return itemHintFix(keyPhrase);
  if (draw(...key, "accuracy") < diagnosisAccuracy(world, n)) return correctFix(cause, config);
  return genericFix(draw(...key, "generic"));
}
