import type { Cause } from "./evidence.js";

/** One harness change as the sim's refiner thinks of it, before it puts it into words. */
export type FixAction =
  | { kind: "set"; path: string; value: string | number | boolean }
  | { kind: "rule"; text: string }
  | { kind: "instruct"; file: string; text: string };

/** How the sim's refiner writes: `tidy` (one fixed phrasing) or `plainspoken` (varied prose). */
export type Style = "tidy" | "plainspoken";

/** Picks one of a list by a unit draw in [0, 1). */
export function pick<T>(items: readonly T[], unit: number): T {
  return items[Math.min(items.length - 1, Math.floor(unit * items.length))];
}

/**
 * Cause labels a model writes for each cause: the first is the tidy one; a plain-spoken model
 * words the same cause differently from failure to failure.
 */
export const causeLabels: Record<Cause, readonly string[]> = {
  "step-budget-exhausted": [
    "step-budget-exhausted",
    "ran-out-of-steps",
    "step-limit-reached",
    "max-steps-too-low",
    "hit-turn-limit",
    "lookup-chain-cut-short",
  ],
  "answer-format-drift": [
    "answer-format-drift",
    "missing-final-answer",
    "no-answer-line",
    "format-noncompliance",
    "unparseable-answer",
    "answer-not-extracted",
  ],
  "gave-up-after-tool-error": [
    "gave-up-after-tool-error",
    "tool-error-abandonment",
    "no-retry-after-tool-error",
    "stopped-on-tool-failure",
    "malformed-tool-call-not-retried",
  ],
  "task-lost-in-context": [
    "task-lost-in-context",
    "question-dropped-from-context",
    "context-truncation",
    "lost-task-statement",
    "missing-question",
  ],
  "arithmetic-slip": [
    "arithmetic-slip",
    "calculation-error",
    "miscalculation",
    "math-mistake",
    "wrong-arithmetic",
  ],
  "unknown-task": [
    "unknown-task",
    "model-does-not-know-the-task",
    "task-outside-model-knowledge",
    "does-not-know-how-to-solve",
  ],
  "wrong-answer": [
    "wrong-answer",
    "incorrect-answer",
    "misread-details",
    "reasoning-error",
    "factual-slip",
  ],
};

/** Failure notes for each cause (the first is the tidy one). */
export const causeNotes: Record<Cause, readonly string[]> = {
  "step-budget-exhausted": [
    "The run was cut at the step limit before the lookups were finished.",
    "It kept looking things up and hit the turn limit before answering.",
    "Out of steps halfway through the chain of lookups; no answer was given.",
  ],
  "answer-format-drift": [
    "The reply gave the result in prose without an 'Answer:' line, so no answer was extracted.",
    "The value is in the text, but there is no answer line the harness could pick up.",
    "Got to a result but never wrote it in the expected answer format.",
  ],
  "gave-up-after-tool-error": [
    "A tool call failed and the agent gave up instead of correcting the call.",
    "After the tool returned an error the agent stopped rather than fixing its arguments.",
    "One malformed tool call, an error back, and the run ended without a retry.",
  ],
  "task-lost-in-context": [
    "The agent said it could not see the question: the task statement had been dropped from the context.",
    "By the later turns the question itself was gone from the conversation.",
    "The task text fell out of the context window, so the model asked what the question was.",
  ],
  "arithmetic-slip": [
    "The arithmetic was done without a calculator and the number is off.",
    "Mental arithmetic went wrong; the result is close but not right.",
    "Computed by hand and got the number wrong.",
  ],
  "unknown-task": [
    "The model said it does not know how to do this task: a task outside what it can solve, not a runtime fault.",
    "The model declined: it does not know how to solve this kind of task.",
    "No attempt at an answer; the model said the task is not one it can do.",
  ],
  "wrong-answer": [
    "The answer is wrong with no runtime signal that explains it.",
    "Plain wrong answer; nothing in the trace points at the harness.",
    "It answered confidently but incorrectly.",
  ],
};

/** Why each cause happens, as a Diagnostician explains it (the first is the tidy one). */
export const causeExplanations: Record<Cause, readonly string[]> = {
  "step-budget-exhausted": [
    "Multi-hop runs need one turn per lookup plus one to answer and hit the step limit first",
    "The step budget is smaller than the number of lookups these chains need, so runs are cut before the answer",
    "Each lookup costs a turn and the agent loop allows too few of them",
  ],
  "answer-format-drift": [
    "The model states the result in prose without an 'Answer:' line, so nothing is extracted",
    "Nothing tells the model how to mark its final answer, so it often ends in prose the extractor cannot read",
    "The answers are right but unmarked: the harness never asks for an answer line",
  ],
  "gave-up-after-tool-error": [
    "After a malformed tool call the raw error is shown and the model gives up instead of retrying",
    "Tool errors come back bare, with nothing suggesting a corrected call, and the model abandons the task",
    "The model treats a tool error as final because nothing in the harness invites a retry",
  ],
  "task-lost-in-context": [
    "Long task statements are dropped by drop_oldest overflow, so the model no longer sees the question",
    "When the history overflows, the oldest message goes first, and that is the task itself",
    "Context trimming removes the question once tool turns pile up",
  ],
  "arithmetic-slip": [
    "Multi-step arithmetic done in the head slips; no calculator tool is offered",
    "The model computes by hand because no calculator is available, and multi-digit results drift",
    "Without a calculator the arithmetic is error-prone",
  ],
  "unknown-task": [
    "The model says it does not know how to do these tasks; no harness change teaches it a task it cannot do",
    "These tasks are outside what the model can do: it declines them, whatever the harness says",
    "The model does not know this kind of task; the harness is not at fault",
  ],
  "wrong-answer": [
    "Wrong answers with no shared runtime signal: likely model-specific, no harness-level cause",
    "These look like one-off mistakes of the model rather than anything the harness does",
    "No common mechanism in the traces; probably the model's own slips",
  ],
};

function valueText(value: string | number | boolean): string {
  return typeof value === "string" && /[\s'"<>]/.test(value)
    ? JSON.stringify(value)
    : String(value);
}

/** Puts one change into words: the mini-language when tidy, varied prose when plain-spoken. */
export function renderAction(action: FixAction, style: Style, unit: number): string {
  if (style === "tidy") {
    if (action.kind === "set") return `Set ${action.path} to ${JSON.stringify(action.value)}`;
    if (action.kind === "rule") return `Add rule: ${action.text}`;
    return `Add to ${action.file}: ${JSON.stringify(action.text)}`;
  }
  if (action.kind === "set") {
    const { path } = action;
    const value = valueText(action.value);
    if (action.value === true)
      return pick([`turn on ${path}`, `enable ${path}`, `set ${path} to true`], unit);
    if (typeof action.value === "number")
      return pick(
        [`raise ${path} to ${value}`, `set ${path} to ${value}`, `increase ${path} to ${value}`],
        unit,
      );
    return pick(
      [`switch ${path} to ${value}`, `set ${path} to ${value}`, `change ${path} to ${value}`],
      unit,
    );
  }
  const quoted = JSON.stringify(action.text);
  if (action.kind === "rule")
    return pick(
      [
        `add the rule ${quoted}`,
        `add a rule saying ${quoted}`,
        `give the model the rule ${quoted}`,
      ],
      unit,
    );
  return pick(
    [
      `add to ${action.file}: ${quoted}`,
      `append the sentence ${quoted} to ${action.file}`,
      `extend ${action.file} with ${quoted}`,
    ],
    unit,
  );
}

const dottedPath = /\b((?:agent_loop|tools|observation|context|completion|prompt)(?:\.[a-z_]+)+)\b/;
const fileName = /(?:^|[\s`'"(])((?:[\w-]+\/)*[\w-]+\.(?:md|txt|prompt|markdown))\b/;

function parseValue(raw: string): string | number | boolean {
  const text = raw.trim().replace(/[.,;]+$/, "");
  if (/^".*"$/s.test(text)) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  if (text === "true" || text === "false") return text === "true";
  const number = Number(text);
  return text !== "" && Number.isFinite(number) ? number : text;
}

/**
 * Reads a change back from words — the mini-language or the prose `renderAction` writes, and
 * the common ways a model says the same: a dotted harness.yaml path with its new value, a
 * quoted rule, or a quoted sentence for a named prompt file. Null when no change is named.
 */
export function readAction(text: string): FixAction | null {
  const tidySet =
    /^\s*Set ([a-z_]+(?:\.[a-z_]+)+) to ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false)\.?\s*$/.exec(
      text,
    );
  if (tidySet) return { kind: "set", path: tidySet[1], value: parseValue(tidySet[2]) };
  const tidyRule = /^\s*Add rule: (.+)$/s.exec(text);
  if (tidyRule) return { kind: "rule", text: tidyRule[1].trim() };
  const path = dottedPath.exec(text);
  if (path) {
    const before = text.slice(0, path.index);
    if (/\b(turn on|enable)\s*$/i.test(before)) return { kind: "set", path: path[1], value: true };
    if (/\b(turn off|disable)\s*$/i.test(before))
      return { kind: "set", path: path[1], value: false };
    const after = text.slice(path.index + path[0].length);
    const value = /^\s*(?:to|=|:|should be|up to)\s+("(?:[^"\\]|\\.)*"|[\w.-]+)/i.exec(after);
    if (value) return { kind: "set", path: path[1], value: parseValue(value[1]) };
  }
  const quoted = /"((?:[^"\\]|\\.)+)"/.exec(text);
  if (!quoted) return null;
  const sentence = parseValue(quoted[0]) as string;
  const file = fileName.exec(
    text.slice(0, quoted.index) + text.slice(quoted.index + quoted[0].length),
  )?.[1];
  if (file) return { kind: "instruct", file, text: sentence };
  if (/\brule\b/i.test(text)) return { kind: "rule", text: sentence };
  return null;
}

/** The text a change would bring into the prompt (rule or instruction), for the Skeptic's checks. */
export function actionText(action: FixAction | null): string {
  return action && action.kind !== "set" ? action.text : "";
}
