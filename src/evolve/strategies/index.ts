import type { Strategy, StrategyName } from "../types.js";
import { ecdysisStrategy } from "./ecdysis.js";
import { iterativeStrategy } from "./iterative.js";
import { samplingStrategy } from "./sampling.js";

export { ecdysisStrategy } from "./ecdysis.js";
export { type IterativeOptions, iterativeStrategy } from "./iterative.js";
export { samplingStrategy, samplingVotes } from "./sampling.js";

/** The built-in strategy of that name with default options. */
export function strategyByName(name: StrategyName): Strategy {
  if (name === "iterative") return iterativeStrategy();
  if (name === "sampling") return samplingStrategy();
  return ecdysisStrategy();
}
