import type { HarnessModule } from "../../config/harness-schema.js";
import type { Cause, Json, JsonObject } from "./evidence.js";
import { isObject, list, objects, setting, text } from "./evidence.js";
import { causeExplanations, type FixAction, pick, type Style } from "./wording.js";

/** The harness fix a diagnosis of a cause proposes (no action: no harness-level cause). */
export interface Fix {
  module: HarnessModule | "command";
  explanation: string;
  action: FixAction | null;
  /**
   * Proposed without seeing the cause (a generic rule, an item hint): told it was tried for the
   * pattern and came to nothing, even inconclusively, a model tries something else.
   */
  guess?: true;
}

/** The instruction a format fix installs (recognised by the agent side). */
export const formatInstruction = "End your reply with a final line of the form 'Answer: <value>'.";
/** The guidance an error fix writes into a prompt file (recognised by the agent side). */
export const errorGuidance =
  "If a tool call returns an error, read the message, fix the arguments and call the tool again.";

/** What the refiner reads of the harness in its evidence (`harness`, see src/refine's HarnessView). */
export interface HarnessSeen {
  kind: "builtin" | "command";
  config: Json | undefined;
  editable: string[];
  files: { path: string; content: string; whole: boolean; editable: boolean }[];
  /** Everything prompt-like the evidence shows (system prompt, rules, files), to spot a fix already in. */
  promptText: string;
}

/** Reads the harness the evidence shows. */
export function harnessSeen(block: JsonObject): HarnessSeen {
  const harness = isObject(block.harness) ? block.harness : {};
  const files = objects(harness.files).map((file) => ({
    path: text(file.path),
    content: text(file.content),
    whole: file.whole !== false,
    editable: file.editable !== false,
  }));
  const kind = text(harness.kind) === "command" ? "command" : "builtin";
  return {
    kind,
    config: harness.config,
    editable: list(harness.editable).map(text),
    files,
    promptText: [
      text(harness.systemPrompt),
      ...list(harness.rules).map(text),
      ...files.map((file) => file.content),
    ].join("\n"),
  };
}

function globMatches(glob: string, path: string): boolean {
  const source = glob
    .split("**/")
    .map((part) =>
      part
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, "[^/]*")
        .replace(/\?/g, "[^/]"),
    )
    .join("(?:[^/]+/)*");
  return new RegExp(`^${source}$`).test(path);
}

/** The prompt file an instruction goes into: the system prompt file, or a command harness's editable prompt. */
export function promptFile(seen: HarnessSeen): string | null {
  const editable = (path: string) =>
    seen.editable.length === 0 || seen.editable.some((glob) => globMatches(glob, path));
  if (seen.kind === "builtin") {
    const system = text(setting(seen.config, "prompt.system")) || "system.md";
    return editable(system) ? system : null;
  }
  const prompts = seen.files
    .filter((file) => file.editable && /\.(md|txt|prompt|markdown)$/i.test(file.path))
    .map((file) => file.path);
  const candidates = seen.files.length > 0 ? prompts : [];
  return candidates.find((path) => /system|prompt/i.test(path)) ?? candidates[0] ?? null;
}

/** The right fix for each cause, given the harness seen and how the refiner words things. */
export function correctFix(
  cause: Cause,
  seen: HarnessSeen,
  options: { style: Style; unit: number; promptFixes?: number },
): Fix {
  const explanation =
    options.style === "tidy"
      ? causeExplanations[cause][0]
      : pick(causeExplanations[cause], options.unit);
  const file = promptFile(seen);
  const instruct = (instruction: string): FixAction | null =>
    file ? { kind: "instruct", file, text: instruction } : null;
  if (seen.kind === "command") {
    const action =
      cause === "answer-format-drift"
        ? instruct(formatInstruction)
        : cause === "gave-up-after-tool-error"
          ? instruct(errorGuidance)
          : null;
    return { module: "command", explanation, action };
  }
  // A plain-spoken refiner sometimes writes prompt-level fixes into the system prompt file.
  const inPrompt =
    options.style === "plainspoken" && options.unit < (options.promptFixes ?? 0.5) && file !== null;
  return builtinFix({ cause, seen, explanation, instructIn: inPrompt ? file : null });
}

/**
 * A built-in harness's fix for a cause: a config setting, or for a prompt-level cause an
 * instruction in `instructIn` when the refiner writes those into the prompt file.
 */
function builtinFix(options: {
  cause: Cause;
  seen: HarnessSeen;
  explanation: string;
  instructIn: string | null;
}): Fix {
  const { seen, explanation, instructIn: file } = options;
  switch (options.cause) {
    case "step-budget-exhausted": {
      const current = Number(setting(seen.config, "agent_loop.max_steps") ?? 4) || 4;
      const next = Math.min(16, Math.max(current + 4, current * 2));
      return {
        module: "agent_loop",
        explanation,
        action: { kind: "set", path: "agent_loop.max_steps", value: next },
      };
    }
    case "answer-format-drift":
      return {
        module: file !== null ? "prompt" : "completion",
        explanation,
        action:
          file !== null
            ? { kind: "instruct", file, text: formatInstruction }
            : { kind: "set", path: "completion.format_instruction", value: formatInstruction },
      };
    case "gave-up-after-tool-error":
      return {
        module: file !== null ? "prompt" : "observation",
        explanation,
        action:
          file !== null
            ? { kind: "instruct", file, text: errorGuidance }
            : { kind: "set", path: "observation.on_error", value: "hint" },
      };
    case "task-lost-in-context":
      return {
        module: "context",
        explanation,
        action: { kind: "set", path: "context.overflow", value: "keep_task" },
      };
    case "arithmetic-slip":
      return {
        module: "tools",
        explanation,
        action: { kind: "set", path: "tools.calculator.enabled", value: true },
      };
    case "unknown-task":
      return { module: "prompt", explanation, action: null };
    case "wrong-answer":
      return { module: "prompt", explanation, action: null };
  }
}

const genericRules = [
  "Read the question carefully before answering.",
  "Double-check every step of your reasoning before giving the result.",
  "Think step by step and be precise.",
  "Avoid unnecessary assumptions.",
];

/** A rule for a prompt-level change: a rule line, or a sentence in the prompt file of a command harness. */
function ruleAction(seen: HarnessSeen, rule: string): FixAction | null {
  if (seen.kind === "builtin") return { kind: "rule", text: rule };
  const file = promptFile(seen);
  return file ? { kind: "instruct", file, text: rule } : null;
}

/** A plausible but ineffective fix (a generic rule). */
export function genericFix(unit: number, seen: HarnessSeen): Fix {
  return {
    module: seen.kind === "command" ? "command" : "prompt",
    explanation: "The model is careless on these tasks",
    action: ruleAction(seen, pick(genericRules, unit)),
    guess: true,
  };
}

/** An item-specific hint naming the task's key phrase (an accommodation). */
export function itemHintFix(keyPhrase: string, seen: HarnessSeen): Fix {
  return {
    module: seen.kind === "command" ? "command" : "prompt",
    explanation: `The model misreads the details of the task about ${keyPhrase}`,
    action: ruleAction(
      seen,
      `When a question mentions ${keyPhrase}, re-read every detail of it before answering.`,
    ),
    guess: true,
  };
}

/** Whether a change is already in force in the harness seen (nothing to propose). */
export function alreadyInEffect(action: FixAction, seen: HarnessSeen): boolean {
  if (action.kind === "set") return setting(seen.config, action.path) === action.value;
  return seen.promptText.includes(action.text);
}
