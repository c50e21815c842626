import type { ClaimName } from "./claims.js";
import type { BenchWorld } from "./types.js";

/** One figure the sim guarantees by how it is built, not by anything a strategy does. */
export interface ByConstruction {
  /** Short name of the figure. */
  figure: string;
  /** The claim it decides, when it decides one (its row is marked in the claims table). */
  claim?: ClaimName;
  /** What holds, and the mechanism in the sim that makes it hold. */
  text: string;
  /** The worlds it holds in (by their parameters); all when absent. */
  holdsIn?: (world: BenchWorld) => boolean;
}

/** `deficiencies.sampleDependent.share` of a world (0 when the world does not set it). */
function sampleDependentShare(world: BenchWorld): number {
  const deficiencies = world.parameters.deficiencies as
    | { sampleDependent?: { share?: number } }
    | undefined;
  return deficiencies?.sampleDependent?.share ?? 0;
}

/**
 * Every figure of the bench that holds by construction of the sim (src/sim), with the mechanism.
 * A claim that holds by construction says nothing about real models; the bench marks it so.
 */
export const byConstruction: readonly ByConstruction[] = [
  {
    figure: "leaked answers",
    text: "None, for every arm: the sim's Editor writes only fixes of its mini-language (settings, generic rules, key-phrase hints), never an expected answer. Item-specific hints do occur: the sim's refiner turns a diagnosis into one only when a single example shows a plain wrong answer (`refiner.hintTendencyAtOne`, src/sim/refiner/analysis-roles.ts). Ecdysis refines only patterns of support ≥ 3, so a hint needs an impure pattern (one wrong-answer example among others); its accommodation count is measured, not guaranteed.",
  },
  {
    figure: "final held-out accuracy Ecdysis − sampling",
    claim: "heldout-vs-sampling",
    text: "Positive whenever Ecdysis fixes anything, in every world without sample-dependent slips (`deficiencies.sampleDependent.share` = 0). There every systematic deficiency and every item slip is keyed on the task statement (and model), not on the sampling seed (src/sim/exposure.ts), so a majority vote over samples can only undo per-sample slips (`modelSpecific.flaky`, and the rule-cost slips of rules beyond `freeRules`); sampling cannot repair a systematic deficiency by construction. In a world with sample-dependent slips a vote repairs some systematic slips too, and the comparison is a measurement. At temperature 0 every sample is the same sample and sampling is the seed harness.",
    holdsIn: (world) => sampleDependentShare(world) === 0,
  },
  {
    figure: "held-out gain of a correct fix",
    text: "A correct diagnosis maps each systematic cause to one harness setting that removes it for every task (src/sim/refiner/fixes.ts); train and held-out tasks draw their deficiencies with the same rates, so a setting that fixes train failures fixes the same share of held-out ones. An item hint fixes only the train item it names, and a generic rule fixes nothing and costs `ruleCost` per rule beyond `freeRules`. Held-out gains therefore come only from systematic fixes.",
  },
  {
    figure: "diagnosis accuracy",
    text: "A function of the evidence only: n is the number of distinct tasks among the examples shown to the role that show the diagnosed cause — never the support the prompt claims — and accuracy is `accuracyAtOne` at n ≤ 1, rising linearly to `accuracyAtMany` at `instancesForMany` (src/sim/refiner/analysis-roles.ts). Examples of different causes in one pattern each get their own diagnosis from their own count (a reflector's minibatch of unrelated failures gets one fix per cause); the Skeptic counts single-instance evidence the same way. This is what gives cross-instance aggregation its diagnostic advantage in non-neutral worlds.",
  },
  {
    figure: "the neutral-refiner decomposition",
    text: "With a neutral refiner every diagnosis gets `accuracyAtMany` and no hint, whatever the evidence: accommodations are 0 for every arm, and what remains of Ecdysis's advantage comes from batching, cheap validation and pipelining, not from aggregation.",
    holdsIn: (world) => world.neutralRefiner,
  },
  {
    figure: "prompt-sensitive items",
    text: "Items a world marks borderline (`modelSpecific.promptSensitivity`) are answered right or wrong by a draw keyed on the exact system-prompt text (src/sim/exposure.ts): any change of that text flips some of them, both ways, whatever the change means. What a validation measures on them is noise, the same for every arm; an arm that validates on more tasks averages more of it out, and no edit fixes them for good.",
  },
  {
    figure: "per-sample slips",
    text: "Flakiness (`modelSpecific.flaky`), the rule-cost slips and sample-dependent slips are keyed on the sampling seed, which is the request's seed above temperature 0 and 0 at temperature 0 (src/sim/exposure.ts): at temperature 0 the sim is deterministic and none of them varies between samples. The bench runs every arm at the same temperature (default 0.7).",
  },
  {
    figure: "Skeptic objections",
    text: "The Skeptic objects (with chance `skeptic.strictness`) only to changes backed by one instance or naming a task entity; the iterative reflector runs without a Skeptic, as GEPA does.",
  },
  {
    figure: "wall times",
    text: "Every LLM call costs `latency.fixedMs + perTokenMs × completion tokens`, times `latency.scale`, and the sim has no rate limit: concurrent calls never slow each other down, so an arm's speed from running more calls at once is not bounded by provider limits as it would be with a hosted model.",
  },
  {
    figure: "reproducibility",
    text: "Replies depend only on the request, the world and its seed; two bench runs with the same options agree in everything but wall times (src/bench/run-bench.int.test.ts).",
  },
];

/** Whether a claim holds by construction in the given worlds (all of them). */
export function claimByConstruction(claim: ClaimName, worlds: readonly BenchWorld[]): boolean {
  const entry = byConstruction.find((candidate) => candidate.claim === claim);
  if (!entry) return false;
  return worlds.every((world) => !entry.holdsIn || entry.holdsIn(world));
}
