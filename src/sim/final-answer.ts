import { draw } from "./draw.js";
import {
  flakes,
  formatDrifts,
  itemSlips,
  promptFlips,
  ruleCostSlips,
  samplingSeed,
  slipsOnSample,
} from "./exposure.js";
import { formatNumber, type Problem } from "./families/problem.js";
import { hintedItem, type RequestSurface } from "./request-surface.js";
import type { SimRequest } from "./sim-request.js";
import type { World } from "./world-schema.js";

const offsets = [1, -1, 2, -2, 10, -10, 3];

/** A plausible wrong answer for a slip: a near-miss number, or a decoy value from the task. */
export function wrongValue(options: {
  problem: Problem;
  value: string;
  decoys: string[];
  salt: string;
}): string {
  const { problem, value, decoys, salt } = options;
  const numeric = problem.kind === "compute" || (problem.kind === "direct" && problem.numeric);
  if (numeric) {
    const offset = offsets[Math.floor(draw("offset", salt, value) * offsets.length)];
    return formatNumber(Number(value) + offset);
  }
  const candidates = decoys.filter((decoy) => decoy !== value);
  if (candidates.length === 0) return `${value}?`;
  return candidates[Math.floor(draw("decoy", salt, value) * candidates.length)];
}

/**
 * Writes the final reply for a value the model arrived at: applies model-specific slips
 * (item slip unless hinted, flakiness and rule cost — by the sampling seed —, prompt
 * sensitivity) and format drift (unless an answer format is instructed or the model is
 * re-prompted). The answer line uses the label the instruction names.
 */
export function finalAnswer(options: {
  world: World;
  request: SimRequest;
  surface: RequestSurface;
  problem: Problem;
  statement: string;
  value: string;
  reasoning: string;
  decoys: string[];
  hits: string[];
}): { content: string; hits: string[] } {
  const { world, request, surface, problem, statement, reasoning, decoys } = options;
  const hits = [...options.hits];
  const seed = samplingSeed(request);
  let value = options.value;
  const slip = (kind: string) => {
    value = wrongValue({ problem, value, decoys, salt: `${kind}${statement}` });
    hits.push(kind);
  };
  if (itemSlips(world, request.model, statement) && !hintedItem(surface, problem.keyPhrase))
    slip("item-slip");
  else if (flakes(world, request.model, statement, seed)) slip("flaky");
  else if (
    ruleCostSlips({ world, model: request.model, statement, seed, rules: surface.ruleCount })
  ) {
    slip("rule-cost");
  } else if (
    promptFlips({
      world,
      model: request.model,
      statement,
      systemText: surface.systemMessages.join("\n"),
    })
  ) {
    slip("prompt-sensitivity");
  }
  if (
    formatDrifts(world, statement) &&
    slipsOnSample({ world, kind: "format-drift", statement, seed }) &&
    !surface.formatInstruction &&
    !surface.reprompted
  ) {
    hits.push("format-drift");
    return { content: `${reasoning} So the result is **${value}**.`, hits };
  }
  return { content: `${reasoning}\n${surface.answerLabel} ${value}`, hits };
}
