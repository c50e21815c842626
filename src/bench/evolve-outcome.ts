import { z } from "zod";
import { plannedEditSchema } from "../harness/types.js";
import { iterationSpendSchema } from "./ceiling.js";

/** A failure pattern as the bench scores it: its class and the tasks of its member rollouts. */
export const foundPatternSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["systematic", "model-specific"]),
  memberTaskIds: z.array(z.string()),
});
export type FoundPattern = z.infer<typeof foundPatternSchema>;

/** An accepted edit with the tasks whose failures it was meant to fix. */
export const acceptedEditViewSchema = z.object({
  edit: plannedEditSchema,
  /** Tasks of the member rollouts of the addressed patterns (iterative: its minibatch failures). */
  addressedTaskIds: z.array(z.string()),
  /**
   * Tasks the accepting validation saw fixed (failed before, pass after) by the candidate that
   * carried this edit; an edit none of whose addressed tasks is among them had no visible effect.
   */
  fixedTaskIds: z.array(z.string()).default([]),
});
export type AcceptedEditView = z.infer<typeof acceptedEditViewSchema>;

/** Uncached work and the wall time it took. */
export const spendViewSchema = z.object({
  rollouts: z.number().int(),
  llmCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  wallMs: z.number(),
  /** Share (0–1) of the spend made by the refiner roles. */
  refinementShare: z.number(),
});
export type SpendView = z.infer<typeof spendViewSchema>;

/** One accepted step of a run: when it finished and the accuracy of the harness it made current. */
export const trajectoryPointSchema = z.object({
  iteration: z.number().int(),
  /** Training wall time (ms, the run's budget clock) when the step was accepted. */
  elapsedMs: z.number(),
  /** Accuracy of the new current harness on the step's batch (0–1). */
  accuracy: z.number(),
  /** How many tasks that accuracy was measured on. */
  tasks: z.number().int(),
});
export type TrajectoryPoint = z.infer<typeof trajectoryPointSchema>;

/** From this training time on, this harness was the one the run would have returned. */
export const inForcePointSchema = z.object({
  /** The iteration that made it current (0: the seed harness). */
  iteration: z.number().int(),
  elapsedMs: z.number(),
  harnessHash: z.string(),
});
export type InForcePoint = z.infer<typeof inForcePointSchema>;

const splitScoreSchema = z.object({ accuracy: z.number(), n: z.number().int() });

/**
 * The part of an evolve run the bench reads. `toEvolveOutcome` builds it from `runEvolve`'s
 * result, so the scoring depends on this small view, not on the whole result record.
 */
export const evolveOutcomeSchema = z.object({
  baseline: z.object({ train: splitScoreSchema, heldout: splitScoreSchema }),
  final: z.object({ train: splitScoreSchema, heldout: splitScoreSchema }),
  /** Spend of the training part alone (what the budget bounds): the figures strategies compete on. */
  training: spendViewSchema,
  /** Spend of the whole run, the seed and final measurements on both splits included. */
  total: spendViewSchema,
  /** Every pattern found in any iteration. */
  patterns: z.array(foundPatternSchema),
  acceptedEdits: z.array(acceptedEditViewSchema),
  /**
   * Accuracy over training time: one point per accepted step, in order. Empty when nothing was
   * accepted.
   */
  trajectory: z.array(trajectoryPointSchema).default([]),
  /** Accuracy of the seed harness on the first iteration's batch (null: no iteration ran). */
  trajectorySeedAccuracy: z.number().nullable().default(null),
  /** Why the strategy stopped. */
  stoppedBy: z.string(),
  /**
   * The harness in force over training time: the seed harness at 0 ms, then one point per
   * accepted step that changed it (empty for a strategy without training).
   */
  inForce: z.array(inForcePointSchema),
  /**
   * Training spend through each iteration, cumulative (the run's journal; empty when it kept
   * none): the rollouts and LLM calls behind each point of the harness in force.
   */
  spentThrough: z.array(iterationSpendSchema).default([]),
});
export type EvolveOutcome = z.infer<typeof evolveOutcomeSchema>;
