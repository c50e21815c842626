import { z } from "zod";
import { plannedEditSchema } from "../harness/types.js";
import { strictJsonSchema } from "../llm/strict-json-schema.js";

const moduleDescription =
  "harness module: agent_loop, tools, observation, context, completion, prompt, or command (a command harness's files)";

/** Diagnostician's reply on the wire (`diagnosis`). */
export const diagnosisWireSchema = z.object({
  diagnoses: z.array(
    z.object({
      patternId: z.string().describe("id of the pattern from the evidence"),
      rootCause: z.string().describe("the harness-level root cause, in one to three sentences"),
      module: z.string().describe(moduleDescription),
      confidence: z
        .number()
        .min(0)
        .max(1)
        .describe("0 to 1: how well the evidence supports this diagnosis"),
    }),
  ),
});
/** One diagnosis: a pattern's root cause and the module at fault. */
export const diagnosisSchema = z
  .object({
    patternId: z.string(),
    rootCause: z.string().default(""),
    module: z.string().default("prompt"),
    confidence: z.coerce
      .number()
      .catch(0.5)
      .transform((value) => Math.min(1, Math.max(0, value))),
  })
  .loose();
export type Diagnosis = z.infer<typeof diagnosisSchema>;
/** Lenient parse of the Diagnostician's reply. */
export const diagnosisReplySchema = z.object({ diagnoses: z.array(diagnosisSchema) });

/** Architect's reply on the wire (`hms`). */
export const hmsWireSchema = z.object({
  changes: z.array(
    z.object({
      module: z.string().describe(moduleDescription),
      change: z.string().describe("the change, concrete enough for an editor to carry out"),
      patterns: z.array(z.string()).describe("ids of the patterns this change addresses"),
      expectedEffect: z.string().describe("which failures it should fix and why"),
      regressionRisks: z.string().describe("how it could hurt tasks that pass today"),
    }),
  ),
});
const riskText = z
  .union([z.string(), z.array(z.string()).transform((risks) => risks.join("; "))])
  .default("");
/** One change of a Harness Modification Specification. */
export const hmsChangeSchema = z
  .object({
    module: z.string(),
    change: z.string(),
    patterns: z.array(z.string()).default([]),
    expectedEffect: z.string().default(""),
    regressionRisks: riskText,
  })
  .loose();
/** Harness Modification Specification: what to change in the harness and why. */
export const hmsSchema = z.object({ changes: z.array(hmsChangeSchema) });
export type Hms = z.infer<typeof hmsSchema>;

/** Skeptic's reply on the wire (`critique`). */
export const critiqueWireSchema = z.object({
  verdict: z.enum(["accept", "revise", "reject"]),
  objections: z.array(
    z.object({
      change: z.string().describe("which change (its module and a few words, or its index)"),
      reason: z.string().describe("what is wrong and what would fix it"),
    }),
  ),
});
/** The Skeptic's verdict on an HMS with its objections. */
export const critiqueSchema = z.object({
  verdict: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(["accept", "revise", "reject"]),
  ),
  objections: z
    .array(
      z
        .object({
          change: z.union([z.string(), z.number().transform(String)]).default(""),
          reason: z.string().default(""),
        })
        .loose(),
    )
    .default([]),
});
export type Critique = z.infer<typeof critiqueSchema>;

/** Editor's reply on the wire (`edits`). */
export const editsWireSchema = z.object({ edits: z.array(plannedEditSchema) });

/**
 * The iterative baseline's one reflection reply on the wire (`reflection`): the diagnosis and the
 * edits together, as GEPA's reflection LM answers in one call.
 */
export const reflectionWireSchema = z.object({
  diagnoses: z.array(
    z.object({
      rootCause: z.string().describe("the harness-level root cause, in one to three sentences"),
      module: z.string().describe(moduleDescription),
    }),
  ),
  edits: z.array(plannedEditSchema),
});

/** A proposal that validation or review turned down; shown to the roles so it is not re-proposed. */
export const rejectedProposalSchema = z.object({
  hms: hmsSchema,
  reason: z.string(),
  patternIds: z.array(z.string()).default([]),
  /**
   * A change pruned because it fixed none of its pattern's failures while other changes were in
   * force (possibly masked): shown with its patterns as a previous attempt, not as a rejection.
   */
  pruned: z.boolean().optional(),
  /** Rejected on an earlier harness: the failure that sank it may be fixed since. */
  earlierHarness: z.boolean().optional(),
});
export type RejectedProposal = z.infer<typeof rejectedProposalSchema>;

/**
 * JSON Schemas sent in `response_format` (strict), in OpenAI's strict-mode subset: the limits
 * they drop (lengths, ranges) are the wire zod schemas', checked after parsing.
 */
export const roleJsonSchemas = {
  diagnosis: strictJsonSchema(diagnosisWireSchema),
  hms: strictJsonSchema(hmsWireSchema),
  critique: strictJsonSchema(critiqueWireSchema),
  edits: strictJsonSchema(editsWireSchema),
  reflection: strictJsonSchema(reflectionWireSchema),
};
