import { z } from "zod";

// Each strategy's own options, one config section each under `evolve:` (`evolve.ecdysis`,
// `evolve.iterative`); what every strategy shares — which one runs, maxIterations, the budget —
// stays in `evolve` itself. A strategy reads only its own section.

/** `evolve.ecdysis`: the Ecdysis strategy (src/evolve/strategies/ecdysis.ts). */
export const ecdysisOptionsSchema = z
  .object({
    /** Train tasks per iteration, stratified by category; the whole split when it is smaller. */
    batchSize: z.number().int().positive().default(60),
    /** A pattern is systematic only with at least this support. */
    minSupport: z
      .object({
        tasks: z.number().int().min(1).default(3),
        categories: z.number().int().min(1).default(1),
      })
      .strict()
      .default({ tasks: 3, categories: 1 }),
    /** Re-samples of failing members to tell flakiness from reproducible failure. */
    resamples: z.number().int().min(0).max(8).default(1),
    /** Rounds the Skeptic may send the HMS back before it is dropped. */
    skepticRounds: z.number().int().min(0).max(5).default(2),
    /** Passing tasks re-run as a regression check during cheap validation. */
    regressionSample: z.number().int().min(0).default(12),
    /** One-sided significance level of the paired (McNemar) test on discordant tasks. */
    alpha: z.number().gt(0).lt(1).default(0.1),
    /**
     * Also accept on the targeted flip test (src/evolve/targeted-test.ts): the fixes landed on
     * the failing tasks the diagnosis named, beyond the measured background of flips. `false`:
     * the fair-coin McNemar test (and the re-draws) alone.
     */
    targetedTest: z.boolean().default(true),
    /**
     * Extra samples of every discordant task, under both harnesses, before the paired test: one
     * draw per task cannot tell a consistent fix from sampling noise when few tasks flip. Not
     * drawn for a built-in agent at temperature 0 (deterministic: the per-task test decides); a
     * re-draw that repeats an earlier one word for word counts once.
     */
    confirmSamples: z.number().int().min(0).max(8).default(2),
    /**
     * When a candidate breaks tasks that passed before, or its targets now fail differently
     * (masked by another failure), diagnose those failures with the candidate's others and
     * refine a follow-up change on top of it (`repairRounds` rounds) before giving the proposal up.
     */
    repairRegressions: z.boolean().default(true),
    /**
     * Repair rounds a rejected candidate may get, each started only while a batch still fits in
     * the budget; a later round is shown the follow-ups the earlier ones had rejected.
     */
    repairRounds: z.number().int().min(1).max(5).default(2),
    /** Proposals a systematic pattern may get (rejected ones are shown to later attempts). */
    maxAttemptsPerPattern: z.number().int().min(1).default(3),
  })
  .strict();
/** `evolve.ecdysis`. */
export type EcdysisOptions = z.infer<typeof ecdysisOptionsSchema>;

/** `evolve.iterative`: the GEPA-faithful iterative baseline (src/evolve/strategies/iterative.ts). */
export const iterativeOptionsSchema = z
  .object({
    /**
     * Stop after this many proposals in a row without improvement. Unset (the default): like
     * GEPA-style search, run until the budget or maxIterations is spent.
     */
    patience: z.number().int().positive().optional(),
    /**
     * GEPA's `reflection_minibatch_size`: train tasks per reflection minibatch, drawn
     * epoch-shuffled; the child is scored on the same minibatch first.
     */
    minibatch: z.number().int().min(1).default(3),
    /**
     * GEPA's `module_selector`: the harness modules one reflection may change — `all` (default
     * here) or `round-robin` (GEPA's default: one module per reflection, in turn per parent).
     * GEPA's components are instruction texts that can each carry any fix; our modules are typed
     * (a calculator fix lives only in `tools`), so round-robin over them discards most fixes —
     * docs/bench/gepa-baseline.md has the measurement.
     */
    components: z.enum(["round-robin", "all"]).default("all"),
    /**
     * GEPA's merge proposer (`use_merge`, on in `dspy.GEPA`): after a reflection adds a child to
     * the pool, the next iteration tries combining two non-dominated candidates that share an
     * ancestor, module by module (src/evolve/strategies/gepa/merge.ts).
     */
    merge: z.boolean().default(true),
    /** GEPA's `max_merge_invocations`: merges tried over the run. */
    maxMergeInvocations: z.number().int().min(0).default(5),
    /**
     * Temperature of the reflection call (GEPA's reflection LM; dspy's examples build it with
     * `temperature=1.0`). Each call also sends a seed of its own, so a re-asked reflection is a
     * fresh sample. 0 asks for the refiner's deterministic reply.
     */
    reflectionTemperature: z.number().min(0).max(2).default(1),
  })
  .strict();
/** `evolve.iterative`. */
export type IterativeOptions = z.infer<typeof iterativeOptionsSchema>;

/** Keys that were flat in `evolve:` before each strategy had its section, and where they live now. */
const movedEvolveKeys: Readonly<Record<string, string>> = {
  batchSize: "evolve.ecdysis.batchSize",
  minSupport: "evolve.ecdysis.minSupport",
  resamples: "evolve.ecdysis.resamples",
  skepticRounds: "evolve.ecdysis.skepticRounds",
  regressionSample: "evolve.ecdysis.regressionSample",
  alpha: "evolve.ecdysis.alpha",
  confirmSamples: "evolve.ecdysis.confirmSamples",
  repairRegressions: "evolve.ecdysis.repairRegressions",
  maxAttemptsPerPattern: "evolve.ecdysis.maxAttemptsPerPattern",
  patience: "evolve.iterative.patience",
  iterativeMinibatch: "evolve.iterative.minibatch",
  iterativeComponents: "evolve.iterative.components",
};

/**
 * A flat key of an older config gives one clear error naming its new place (before the strict
 * section would call it merely unrecognized).
 */
export function refuseMovedKeys(value: unknown, context: z.RefinementCtx): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  for (const key of Object.keys(value)) {
    const place = movedEvolveKeys[key];
    if (place)
      context.addIssue({
        code: "custom",
        path: [key],
        message: `'evolve.${key}' moved to '${place}' (each strategy's options have their own section)`,
      });
  }
  return value;
}
