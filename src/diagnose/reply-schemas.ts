import { z } from "zod";
import { strictJsonSchema } from "../llm/strict-json-schema.js";

/** Wire shape of a `failure_notes` reply (sent to the model as JSON Schema). */
export const failureNotesWireSchema = z.object({
  notes: z.array(
    z.object({
      id: z.string().describe("the failure's id from the evidence"),
      note: z.string().describe("one or two sentences: what went wrong in this run"),
      cause: z.string().describe("short kebab-case cause label, e.g. answer-format-drift"),
    }),
  ),
});
/** Lenient parse of a `failure_notes` reply: missing fields default, extra fields pass. */
export const failureNotesReplySchema = z.object({
  notes: z.array(
    z
      .object({ id: z.string(), note: z.string().default(""), cause: z.string().default("") })
      .loose(),
  ),
});
export type FailureNotesReply = z.infer<typeof failureNotesReplySchema>;

/** Wire shape of a `pattern_merge` reply. */
export const patternMergeWireSchema = z.object({
  patterns: z.array(
    z.object({
      name: z.string().describe("short kebab-case name of the failure pattern"),
      description: z.string().describe("what the failures have in common, in one or two sentences"),
      groupKeys: z.array(z.string()).describe("keys of the groups this pattern merges"),
      module: z
        .string()
        .describe(
          "harness module suspected: agent_loop, tools, observation, context, completion, prompt or command",
        ),
    }),
  ),
});
/** Lenient parse of a `pattern_merge` reply. */
export const patternMergeReplySchema = z.object({
  patterns: z.array(
    z
      .object({
        name: z.string().default(""),
        description: z.string().default(""),
        groupKeys: z.array(z.string()).default([]),
        module: z.string().default(""),
      })
      .loose(),
  ),
});
export type PatternMergeReply = z.infer<typeof patternMergeReplySchema>;

/** JSON Schemas sent in `response_format` (strict), in OpenAI's strict-mode subset. */
export const failureNotesJsonSchema = strictJsonSchema(failureNotesWireSchema);
export const patternMergeJsonSchema = strictJsonSchema(patternMergeWireSchema);
