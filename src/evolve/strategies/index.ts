import type { StrategyName } from "../../config/config-schema.js";
import type { Strategy } from "../strategy.js";
import { ecdysisStrategy } from "./ecdysis.js";
import { iterativeStrategy } from "./iterative.js";
import { samplingStrategy } from "./sampling.js";

export { ecdysisStrategy } from "./ecdysis.js";
export { iterativeStrategy } from "./iterative.js";
export { samplingStrategy, samplingVotes } from "./sampling.js";

/** The built-in strategy of that name with default options. */
export function strategyByName(name: StrategyName): Strategy {
  const strategies: Record<StrategyName, () => Strategy> = {
    ecdysis: ecdysisStrategy,
    iterative: iterativeStrategy,
    sampling: samplingStrategy,
  };
  return strategies[name]();
}
