import type { ScorerSpec, Task } from "../../config/task-schema.js";
import { InputError } from "../../errors/input-error.js";
import type { ChatProvider } from "../../llm/types.js";
import { choiceScorer } from "./choice-scorer.js";
import { commandScorer } from "./command-scorer.js";
import { containsScorer } from "./contains-scorer.js";
import { exactScorer } from "./exact-scorer.js";
import { jsonSubsetScorer } from "./json-subset-scorer.js";
import { llmJudgeScorer } from "./llm-judge-scorer.js";
import { numericScorer } from "./numeric-scorer.js";
import { regexScorer } from "./regex-scorer.js";
import type { Scorer } from "./scorer.js";

/** Where a scorer runs: the config folder (command scorers) and the judge model (llm_judge). */
export interface ScorerContext {
  root: string;
  judge?: ChatProvider;
  /** File named in errors (the config). */
  file?: string;
}

/** Builds the scorer of one spec. */
export function createScorer(spec: ScorerSpec, context: ScorerContext): Scorer {
  switch (spec.kind) {
    case "exact":
      return exactScorer();
    case "numeric":
      return numericScorer(spec);
    case "regex":
      return regexScorer(spec);
    case "contains":
      return containsScorer();
    case "choice":
      return choiceScorer(spec);
    case "json_subset":
      return jsonSubsetScorer();
    case "command":
      return commandScorer(spec, context);
    case "llm_judge":
      if (!context.judge) {
        throw new InputError(
          context.file ?? "config",
          "an llm_judge scorer needs a judge model (the refiner model)",
          {
            field: "tasks.scorer",
          },
        );
      }
      return llmJudgeScorer(spec, context.judge);
  }
}

/**
 * The per-task scorer function `evaluate` takes: a task's own `scorer` overrides the default.
 * Scorers are built once per distinct spec.
 */
export function scorerForTasks(
  defaultSpec: ScorerSpec,
  context: ScorerContext,
): (task: Task) => Scorer {
  const byKey = new Map<string, Scorer>();
  const fallback = createScorer(defaultSpec, context);
  return (task) => {
    if (!task.scorer) return fallback;
    const key = JSON.stringify(task.scorer);
    let scorer = byKey.get(key);
    if (!scorer) {
      scorer = createScorer(task.scorer, context);
      byKey.set(key, scorer);
    }
    return scorer;
  };
}
