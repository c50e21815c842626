import { draw } from "./draw.js";
import type { Problem } from "./families/problem.js";
import { statementMarker } from "./families/recognise.js";
import type { World } from "./world-schema.js";

/** The statement part of a task text (after any preamble), trimmed: what draws are keyed by. */
export function statementOf(text: string): string {
  const at = text.lastIndexOf(statementMarker);
  return (at >= 0 ? text.slice(at + statementMarker.length) : text).trim();
}

/** Whether a task text has a long preamble before its statement. */
export function hasPreamble(text: string): boolean {
  return text.includes(statementMarker);
}

/** Text-keyed systematic draws (world seed + statement only; any model suffers them). */
export function formatDrifts(world: World, statement: string): boolean {
  return (
    draw(world.seed, "format-drift", statement) < world.deficiencies.systematic["format-drift"]
  );
}

/** Whether a compute item is miscalculated without a calculator. */
export function arithmeticSlips(world: World, problem: Problem, statement: string): boolean {
  return (
    problem.kind === "compute" &&
    draw(world.seed, "arithmetic-slip", statement) <
      world.deficiencies.systematic["arithmetic-slip"]
  );
}

/**
 * Whether an item a sample-dependent kind (`format-drift`, `arithmetic-slip`) hits slips on this
 * sample: always, unless the item is one of `deficiencies.sampleDependent.share`, which slip with
 * `chance` per sampling seed.
 */
export function slipsOnSample(options: {
  world: World;
  kind: "format-drift" | "arithmetic-slip";
  statement: string;
  seed: number;
}): boolean {
  const { world, kind, statement, seed } = options;
  if (!sampleDependent(world, kind, statement)) return true;
  return (
    draw(world.seed, `${kind}-sample`, statement, seed) < world.deficiencies.sampleDependent.chance
  );
}

/** Whether an item's slip of this kind depends on the sample (see `slipsOnSample`). */
export function sampleDependent(
  world: World,
  kind: "format-drift" | "arithmetic-slip",
  statement: string,
): boolean {
  const { share } = world.deficiencies.sampleDependent;
  return share > 0 && draw(world.seed, `${kind}-sampled`, statement) < share;
}

/** Whether a tool-using item's first tool call is malformed (and the model gives up unless guided). */
export function toolCallMalformed(world: World, problem: Problem, statement: string): boolean {
  return (
    problem.kind !== "direct" &&
    draw(world.seed, "tool-error-giveup", statement) <
      world.deficiencies.systematic["tool-error-giveup"]
  );
}

/** Per-item slip of one model (consistent across samples; flipped only by an item hint). */
export function itemSlips(world: World, model: string, statement: string): boolean {
  return (
    draw(world.seed, "item-slip", model, statement) < world.deficiencies.modelSpecific.itemSlip
  );
}

/**
 * The seed that shapes a reply: the request's above temperature 0; at temperature 0 a model is
 * deterministic, so every seed answers as seed 0 does.
 */
export function samplingSeed(request: { seed: number; temperature: number }): number {
  return request.temperature > 0 ? request.seed : 0;
}

/** Per-sample slip keyed by the sampling seed (see `samplingSeed`). */
export function flakes(world: World, model: string, statement: string, seed: number): boolean {
  return draw(world.seed, "flaky", model, statement, seed) < world.deficiencies.modelSpecific.flaky;
}

/**
 * Prompt sensitivity: a borderline item (a fixed share, per model) is answered wrong when a draw
 * keyed on the exact system-prompt text says so — even odds, so any change of that text flips
 * some borderline items each way, as a real model's do.
 */
export function promptFlips(options: {
  world: World;
  model: string;
  statement: string;
  systemText: string;
}): boolean {
  const { world, model, statement } = options;
  if (!borderline(world, model, statement)) return false;
  return draw(world.seed, "prompt-flip", model, statement, options.systemText) < 0.5;
}

/** Whether an item is borderline (prompt-sensitive) for a model. */
export function borderline(world: World, model: string, statement: string): boolean {
  const share = world.deficiencies.modelSpecific.promptSensitivity;
  return share > 0 && draw(world.seed, "borderline", model, statement) < share;
}

/** Slip caused by rules beyond `freeRules` (monotone in the rule count). */
export function ruleCostSlips(options: {
  world: World;
  model: string;
  statement: string;
  seed: number;
  rules: number;
}): boolean {
  const { world, model, statement, seed, rules } = options;
  const extra = Math.max(0, rules - world.freeRules);
  return (
    extra > 0 && draw(world.seed, "rule-cost", model, statement, seed) < extra * world.ruleCost
  );
}
