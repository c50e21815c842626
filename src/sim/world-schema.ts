import { z } from "zod";
import { modelQuirks } from "../config/model-config-schema.js";

/** Task families the sim can generate and solve. */
export const familyKinds = [
  "arithmetic",
  "unit-conversion",
  "multi-hop",
  "date-reasoning",
  "extraction",
] as const;
export const familyKindSchema = z.enum(familyKinds);
export type FamilyKind = z.infer<typeof familyKindSchema>;

/** Systematic (harness-mitigable) deficiency kinds. */
export const systematicKinds = [
  "format-drift",
  "arithmetic-slip",
  "step-budget",
  "tool-error-giveup",
  "context-loss",
] as const;

/** Server quirks that mimic real OpenAI-compatible servers (see README): the config's list. */
export const quirkSchema = z.enum(modelQuirks);
/** One server quirk. */
export type Quirk = z.infer<typeof quirkSchema>;

const rate = z.number().min(0).max(1);

/** One task family of a world: how many tasks per split, and its parameters. */
export const familySchema = z
  .object({
    kind: familyKindSchema,
    counts: z.object({ train: z.number().int().min(0), heldout: z.number().int().min(0) }).strict(),
    /** Multi-hop only: number of lookups a chain needs. */
    hops: z
      .object({ min: z.number().int().min(1).max(4), max: z.number().int().min(1).max(4) })
      .strict()
      .default({ min: 1, max: 4 }),
  })
  .strict();
export type Family = z.infer<typeof familySchema>;

/** A world: task families, the simulated model's deficiencies, refiner assumptions, latency. */
export const worldSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(""),
    seed: z.number().int(),
    families: z.array(familySchema).min(1),
    deficiencies: z
      .object({
        /** Per-kind rates; keyed by world seed + task text only, so any model suffers them. */
        systematic: z
          .object({
            /** Share of items answered in prose unless an answer format is instructed. */
            "format-drift": rate.default(0),
            /** Share of arithmetic / unit-conversion items computed wrongly without a calculator. */
            "arithmetic-slip": rate.default(0),
            /** Share of multi-hop items with a long chain (more turns than the seed budget). */
            "step-budget": rate.default(0),
            /** Share of tool-using items whose first tool call is malformed; gives up unless guided. */
            "tool-error-giveup": rate.default(0),
            /** Share of tool-using items (multi-hop, arithmetic, unit conversion) with a long preamble that overflows the seed context budget. */
            "context-loss": rate.default(0),
          })
          .strict()
          .default({
            "format-drift": 0,
            "arithmetic-slip": 0,
            "step-budget": 0,
            "tool-error-giveup": 0,
            "context-loss": 0,
          }),
        modelSpecific: z
          .object({
            /** Per-item consistent slips keyed by model name; flipped only by an item hint. */
            itemSlip: rate.default(0),
            /** Per-sample slips keyed by the request seed (above temperature 0 only). */
            flaky: rate.default(0),
            /**
             * Share of items that are borderline for this model: each is answered right or wrong
             * (even odds) by a draw keyed on the exact system-prompt text, so any change of that
             * text flips some of them, both ways.
             */
            promptSensitivity: rate.default(0),
          })
          .strict()
          .default({ itemSlip: 0, flaky: 0, promptSensitivity: 0 }),
        /**
         * Sample-dependent systematic slips. Of the items an arithmetic slip or a format drift
         * hits, `share` slip only on some samples: each sample slips with `chance`, keyed by the
         * sampling seed (at temperature 0 every sample is seed 0: such an item then slips always
         * or never). A majority vote over samples repairs those of them whose `chance` < 1/2 loses;
         * the harness fix (a calculator, an answer format) repairs every one, on every sample.
         */
        sampleDependent: z
          .object({ share: rate.default(0), chance: rate.default(0.35) })
          .strict()
          .default({ share: 0, chance: 0.35 }),
      })
      .strict(),
    /** Chance of a slip per rollout added by every rule beyond `freeRules`. */
    ruleCost: rate.default(0.01),
    freeRules: z.number().int().min(0).default(4),
    refiner: z
      .object({
        /** Chance a one-instance diagnosis finds the real cause. */
        accuracyAtOne: rate.default(0.4),
        /** Chance a diagnosis backed by `instancesForMany` or more instances finds it. */
        accuracyAtMany: rate.default(0.95),
        instancesForMany: z.number().int().min(1).default(4),
        /** Chance a one-instance diagnosis of a plain wrong answer becomes an item-specific hint. */
        hintTendencyAtOne: rate.default(0.5),
        /** Neutral: one instance is diagnosed as well as many (accuracyAtMany, no hint tendency). */
        neutral: z.boolean().default(false),
        /**
         * How the refiner writes. `tidy`: one fixed label per cause and a fixed mini-language for
         * changes. `plainspoken`: like a real model — varied wording for the same diagnosis,
         * varied cause labels, changes in prose, prompt-level fixes as text edits of the system
         * prompt file, and schema slips at `schemaSlips`.
         */
        style: z.enum(["tidy", "plainspoken"]).default("tidy"),
        /** Chance an Editor edit carries a schema slip (extra key, "true" for true, old/new, no wrapper, a find off by whitespace); none when asked to repair. */
        schemaSlips: rate.default(0),
        /** Chance the merge step recognises a group as part of the pattern of its cause (else it stays its own pattern). */
        mergeRecall: rate.default(1),
        /**
         * Plain-spoken only: chance a prompt-level fix (the answer format, guidance after tool
         * errors) is written into the system prompt file rather than set as a config field.
         */
        promptFixes: rate.default(0.5),
      })
      .strict()
      .default({
        accuracyAtOne: 0.4,
        accuracyAtMany: 0.95,
        instancesForMany: 4,
        hintTendencyAtOne: 0.5,
        neutral: false,
        style: "tidy",
        schemaSlips: 0,
        mergeRecall: 1,
        promptFixes: 0.5,
      }),
    skeptic: z
      .object({
        /** Chance the Skeptic objects to a single-instance or entity-specific change. */
        strictness: rate.default(0.8),
      })
      .strict()
      .default({ strictness: 0.8 }),
    latency: z
      .object({
        fixedMs: z.number().min(0).default(600),
        perTokenMs: z.number().min(0).default(10),
        /** Multiplier applied to both, so a bench finishes in minutes; LLM time still dominates. */
        scale: z.number().min(0).default(0.05),
      })
      .strict()
      .default({ fixedMs: 600, perTokenMs: 10, scale: 0.05 }),
    /** The weak seed harness written by generateWorldFiles. */
    seedHarness: z
      .object({
        maxSteps: z.number().int().min(1).default(3),
        contextChars: z.number().int().min(200).default(1600),
      })
      .strict()
      .default({ maxSteps: 3, contextChars: 1600 }),
    /** Model names whose item slips are listed in ground-truth.json. */
    groundTruthModels: z.array(z.string().min(1)).default(["sim-1"]),
  })
  .strict();

/** A validated world file. */
export type World = z.infer<typeof worldSchema>;
