import { z } from "zod";

/**
 * The built-in harness: `harness.yaml` in the harness folder. Module names are the ones the
 * refiner roles target (agent_loop, tools, observation, context, completion, prompt).
 */
export const harnessModules = [
  "agent_loop",
  "tools",
  "observation",
  "context",
  "completion",
  "prompt",
] as const;
export const harnessModuleSchema = z.enum(harnessModules);
export type HarnessModule = z.infer<typeof harnessModuleSchema>;

/**
 * The default `completion.answer_pattern`: an answer line the way models write it — `Answer:`,
 * `answer:`, `ANSWER:`, `Final answer:`, with Markdown emphasis around the label
 * (`**Answer:** 42`, `**Answer**: 42`). Marks around the value are trimmed by the extractor.
 */
export const defaultAnswerPattern = "(?:[Aa]nswer|ANSWER)(?:\\*\\*|__|\\*|_)?\\s*:\\s*(.+)";

/**
 * The answer-format instruction `ecdysis init` writes into a new project's seed harness: without
 * one, a real model answers in prose and nothing is extracted before any evolution.
 */
export const recommendedFormatInstruction =
  "End your reply with a final line of the form 'Answer: <value>', giving only the value.";

const toolSchema = z
  .object({
    enabled: z.boolean().default(false).describe("offer this tool to the model"),
    description: z
      .string()
      .max(2000)
      .optional()
      .describe("the tool description the model reads (unset: the built-in one)"),
  })
  .strict();

/** What each module of a built-in harness governs (shown to the refiner roles). */
const harnessModuleDescriptions: Record<HarnessModule, string> = {
  agent_loop:
    "the turn loop: single completion or tool loop, the step budget, an optional self-check",
  tools: "which built-in tools the model is offered, and their descriptions",
  observation: "how tool output is shown: length cap, raw errors or errors followed by a hint",
  context: "the history budget and what survives when it overflows",
  completion:
    "how the final answer is recognised and extracted, the format instruction, what happens when it is missing",
  prompt: "the system prompt file and the rules file (each '- ' line is one rule)",
};

export const harnessConfigSchema = z
  .object({
    agent_loop: z
      .object({
        style: z
          .enum(["react", "single_shot"])
          .default("react")
          .describe(
            "react: tool loop (native or text-protocol tool calls); single_shot: one completion, no tools",
          ),
        max_steps: z
          .number()
          .int()
          .min(1)
          .max(64)
          .default(4)
          .describe(
            "model turns allowed before the run is cut with a step-limit event (each tool call takes a turn)",
          ),
        self_check: z
          .boolean()
          .default(false)
          .describe("after a candidate answer, ask the model once to verify it"),
      })
      .strict()
      .default({ style: "react", max_steps: 4, self_check: false })
      .describe(harnessModuleDescriptions.agent_loop),
    tools: z
      .object({
        calculator: toolSchema
          .default({ enabled: false })
          .describe(
            "calculator(expression): evaluates digits, + - * / ( ) . % and spaces; anything else is a tool error",
          ),
        lookup: toolSchema
          .extend({
            files: z
              .array(z.string())
              .default(["knowledge.md"])
              .describe("knowledge files (inside the harness folder) the lookup tool searches"),
          })
          .strict()
          .default({ enabled: false, files: ["knowledge.md"] })
          .describe(
            "lookup(key): returns the '## <key>' entry of the knowledge files (case-insensitive); no entry is a tool error",
          ),
      })
      .strict()
      .default({
        calculator: { enabled: false },
        lookup: { enabled: false, files: ["knowledge.md"] },
      })
      .describe(harnessModuleDescriptions.tools),
    observation: z
      .object({
        max_chars: z
          .number()
          .int()
          .min(50)
          .max(100_000)
          .default(2000)
          .describe("tool output longer than this is cut and marked with a truncation event"),
        on_error: z
          .enum(["show", "hint"])
          .default("show")
          .describe("show: the raw tool error; hint: the error followed by error_hint"),
        error_hint: z
          .string()
          .max(1000)
          .default("Hint: check the tool's argument format and call it again.")
          .describe("text appended to a tool error when on_error is hint"),
      })
      .strict()
      .default({
        max_chars: 2000,
        on_error: "show",
        error_hint: "Hint: check the tool's argument format and call it again.",
      })
      .describe(harnessModuleDescriptions.observation),
    context: z
      .object({
        max_chars: z
          .number()
          .int()
          .min(200)
          .max(1_000_000)
          .default(8000)
          .describe("budget for the conversation history in characters (system prompt excluded)"),
        overflow: z
          .enum(["drop_oldest", "keep_task"])
          .default("drop_oldest")
          .describe(
            "what survives overflow: drop_oldest drops from the front (the task first); keep_task pins the task message",
          ),
      })
      .strict()
      .default({ max_chars: 8000, overflow: "drop_oldest" })
      .describe(harnessModuleDescriptions.context),
    completion: z
      .object({
        answer_pattern: z
          .string()
          .default(defaultAnswerPattern)
          .describe(
            "regular expression whose first group is the final answer (the last match counts)",
          ),
        format_instruction: z
          .string()
          .max(2000)
          .default("")
          .describe(
            "text added to the system prompt under '## Answer format' (empty: no instruction)",
          ),
        on_missing: z
          .enum(["fail", "reprompt"])
          .default("fail")
          .describe(
            "fail: a reply without an answer ends the run; reprompt: ask once more with reprompt_message",
          ),
        reprompt_message: z
          .string()
          .max(1000)
          .default(
            "Your reply did not contain a final answer. Reply with one line of the form 'Answer: <value>'.",
          )
          .describe("the user message sent when on_missing is reprompt"),
        strip_thinking: z
          .boolean()
          .default(true)
          .describe(
            "drop a reasoning model's <think>…</think> from each reply before the answer is read and before the reply goes back into the history",
          ),
      })
      .strict()
      .default({
        answer_pattern: defaultAnswerPattern,
        format_instruction: "",
        on_missing: "fail",
        reprompt_message:
          "Your reply did not contain a final answer. Reply with one line of the form 'Answer: <value>'.",
        strip_thinking: true,
      })
      .describe(harnessModuleDescriptions.completion),
    prompt: z
      .object({
        system: z
          .string()
          .default("system.md")
          .describe("Markdown file with the system prompt, relative to the harness folder"),
        rules: z
          .string()
          .default("rules.md")
          .describe("Markdown file whose '- ' lines are the rules, rendered under '## Rules'"),
      })
      .strict()
      .default({ system: "system.md", rules: "rules.md" })
      .describe(harnessModuleDescriptions.prompt),
  })
  .strict();

/** Validated `harness.yaml`. */
export type HarnessConfig = z.infer<typeof harnessConfigSchema>;
