import type { HarnessModule } from "../../config/harness-schema.js";
import type { Cause, Json } from "./evidence.js";
import { setting } from "./evidence.js";

/** The harness fix a correct diagnosis of a cause proposes (null: no harness-level cause). */
export interface Fix {
  module: HarnessModule;
  explanation: string;
  /** The change in the sim's mini-language: `Set <path> to <json>` or `Add rule: <text>`. */
  change: string | null;
}

/** The instruction a format fix installs (recognised by the agent side). */
export const formatInstruction = "End your reply with a final line of the form 'Answer: <value>'.";

/** The right fix for each cause, given the current harness config. */
export function correctFix(cause: Cause, config: Json | undefined): Fix {
  switch (cause) {
    case "step-budget-exhausted": {
      const current = Number(setting(config, "agent_loop.max_steps") ?? 4) || 4;
      const next = Math.min(16, Math.max(current + 4, current * 2));
      return {
        module: "agent_loop",
        explanation:
          "Multi-hop runs need one turn per lookup plus one to answer and hit the step limit first",
        change: `Set agent_loop.max_steps to ${next}`,
      };
    }
    case "answer-format-drift":
      return {
        module: "completion",
        explanation:
          "The model states the result in prose without an 'Answer:' line, so nothing is extracted",
        change: `Set completion.format_instruction to ${JSON.stringify(formatInstruction)}`,
      };
    case "gave-up-after-tool-error":
      return {
        module: "observation",
        explanation:
          "After a malformed tool call the raw error is shown and the model gives up instead of retrying",
        change: `Set observation.on_error to "hint"`,
      };
    case "task-lost-in-context":
      return {
        module: "context",
        explanation:
          "Long task statements are dropped by drop_oldest overflow, so the model no longer sees the question",
        change: `Set context.overflow to "keep_task"`,
      };
    case "arithmetic-slip":
      return {
        module: "tools",
        explanation: "Multi-step arithmetic done in the head slips; no calculator tool is offered",
        change: "Set tools.calculator.enabled to true",
      };
    case "unknown-task":
      return {
        module: "prompt",
        explanation:
          "The model says it does not know how to do these tasks; no harness change teaches it a task it cannot do",
        change: null,
      };
    case "wrong-answer":
      return {
        module: "prompt",
        explanation:
          "Wrong answers with no shared runtime signal: likely model-specific, no harness-level cause",
        change: null,
      };
  }
}

const genericRules = [
  "Read the question carefully before answering.",
  "Double-check every step of your reasoning before giving the result.",
  "Think step by step and be precise.",
  "Avoid unnecessary assumptions.",
];

/** A plausible but ineffective fix (a generic rule). */
export function genericFix(unit: number): Fix {
  const rule = genericRules[Math.floor(unit * genericRules.length)];
  return {
    module: "prompt",
    explanation: "The model is careless on these tasks",
    change: `Add rule: ${rule}`,
  };
}

/** An item-specific hint naming the task's key phrase (an accommodation). */
export function itemHintFix(keyPhrase: string): Fix {
  return {
    module: "prompt",
    explanation: `The model misreads the details of the task about ${keyPhrase}`,
    change: `Add rule: When a question mentions ${keyPhrase}, re-read every detail of it before answering.`,
  };
}

/** Parses a change in the mini-language back into its parts. */
export function parseChange(
  change: string,
): { path: string; value: string | number | boolean } | { rule: string } | null {
  const set = /Set ([a-z_]+(?:\.[a-z_]+)+) to (.+?)\.?\s*$/.exec(change);
  if (set) {
    try {
      const value = JSON.parse(set[2]) as unknown;
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        return { path: set[1], value };
    } catch {
      return { path: set[1], value: set[2] };
    }
  }
  const rule = /Add rule: (.+)$/s.exec(change);
  return rule ? { rule: rule[1].trim() } : null;
}
