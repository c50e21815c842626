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
    enabled: z.boolean().default(false),
    description: z.string().max(2000).optional(),
  })
  .strict();

export const harnessConfigSchema = z
  .object({
    agent_loop: z
      .object({
        /** `react`: native (or text-protocol) tool loop; `single_shot`: one completion, no tools. */
        style: z.enum(["react", "single_shot"]).default("react"),
        /** Model turns allowed before the run is cut with a `step-limit` event. */
        max_steps: z.number().int().min(1).max(64).default(4),
        /** After a candidate answer, ask the model once to verify it. */
        self_check: z.boolean().default(false),
      })
      .strict()
      .default({ style: "react", max_steps: 4, self_check: false }),
    tools: z
      .object({
        calculator: toolSchema.default({ enabled: false }),
        /** Looks up entries in the harness folder's knowledge files. */
        lookup: toolSchema
          .extend({ files: z.array(z.string()).default(["knowledge.md"]) })
          .strict()
          .default({ enabled: false, files: ["knowledge.md"] }),
      })
      .strict()
      .default({
        calculator: { enabled: false },
        lookup: { enabled: false, files: ["knowledge.md"] },
      }),
    observation: z
      .object({
        /** Tool output longer than this is cut and marked with a `truncation` event. */
        max_chars: z.number().int().min(50).max(100_000).default(2000),
        /** `show`: raw error text; `hint`: error text followed by `error_hint`. */
        on_error: z.enum(["show", "hint"]).default("show"),
        error_hint: z
          .string()
          .max(1000)
          .default("Hint: check the tool's argument format and call it again."),
      })
      .strict()
      .default({
        max_chars: 2000,
        on_error: "show",
        error_hint: "Hint: check the tool's argument format and call it again.",
      }),
    context: z
      .object({
        /** Budget for the conversation history in characters (system prompt excluded). */
        max_chars: z.number().int().min(200).max(1_000_000).default(8000),
        /** What survives overflow: `drop_oldest` drops from the front; `keep_task` pins the task message. */
        overflow: z.enum(["drop_oldest", "keep_task"]).default("drop_oldest"),
      })
      .strict()
      .default({ max_chars: 8000, overflow: "drop_oldest" }),
    completion: z
      .object({
        /** Regex whose first group is the final answer. */
        answer_pattern: z.string().default(defaultAnswerPattern),
        /** Text appended to the system prompt under "## Answer format" (empty: none). */
        format_instruction: z.string().max(2000).default(""),
        /** `fail`: a missing answer ends the run; `reprompt`: ask once more for the answer line. */
        on_missing: z.enum(["fail", "reprompt"]).default("fail"),
        reprompt_message: z
          .string()
          .max(1000)
          .default(
            "Your reply did not contain a final answer. Reply with one line of the form 'Answer: <value>'.",
          ),
      })
      .strict()
      .default({
        answer_pattern: defaultAnswerPattern,
        format_instruction: "",
        on_missing: "fail",
        reprompt_message:
          "Your reply did not contain a final answer. Reply with one line of the form 'Answer: <value>'.",
      }),
    prompt: z
      .object({
        /** Markdown file with the system prompt, relative to the harness folder. */
        system: z.string().default("system.md"),
        /** Markdown file whose `- ` lines are the evolvable rules. */
        rules: z.string().default("rules.md"),
      })
      .strict()
      .default({ system: "system.md", rules: "rules.md" }),
  })
  .strict();

/** Validated `harness.yaml`. */
export type HarnessConfig = z.infer<typeof harnessConfigSchema>;
