import type { GateConfig } from "../config/config-schema.js";
import { formatPValue } from "../eval/statistics.js";
import { binomialUpperTail, type PairedComparison } from "./paired-test.js";

/** What the held-out evidence says of head (or final) against base (or seed). */
export type GateVerdict = "better" | "not-worse" | "worse";

/**
 * The gate in words that do not overclaim: `better (p = 0.0039)` only when the paired one-sided
 * McNemar test says so at `gate.alpha`; `not worse (p = 0.17, not significant)` when the accuracy
 * stays within the tolerance without such evidence (a higher accuracy on a few tasks is not
 * evidence); `worse (p = …)` otherwise.
 */
function gateVerdict(options: {
  base: number;
  head: number;
  comparison: PairedComparison;
  gate: GateConfig;
}): { verdict: GateVerdict; words: string } {
  const { base, head, comparison, gate } = options;
  if (head > base && comparison.pValue < gate.alpha)
    return { verdict: "better", words: `better (${formatPValue(comparison.pValue)})` };
  if (head >= base - gate.tolerance - 1e-12)
    return {
      verdict: "not-worse",
      words: `not worse (${formatPValue(comparison.pValue)}, not significant)`,
    };
  const pWorse = binomialUpperTail(
    comparison.broken.length,
    comparison.fixed.length + comparison.broken.length,
  );
  return { verdict: "worse", words: `worse (${formatPValue(pWorse)})` };
}

/**
 * The gate's decision. With `gate.require` set it decides: `better` passes only a significant
 * gain, `not-worse` anything within the tolerance. Unset, each gate keeps its own bar (`legacy`:
 * the evolve gate's `requireImprovement`, the pull-request gate's tolerance). The reason starts
 * with the words either way.
 */
export function gateDecision(options: {
  base: number;
  head: number;
  comparison: PairedComparison;
  gate: GateConfig;
  /** The gate's own bar, used when `gate.require` is unset. */
  legacy: { accepted: boolean; reason: string };
}): { verdict: GateVerdict; passed: boolean; reason: string } {
  const { verdict, words } = gateVerdict(options);
  const require = options.gate.require;
  if (!require)
    return {
      verdict,
      passed: options.legacy.accepted,
      reason: `${words}: ${options.legacy.reason}`,
    };
  const passed = verdict === "better" || (require === "not-worse" && verdict === "not-worse");
  return {
    verdict,
    passed,
    reason: `${words}: ${passed ? "passed" : "failed"} (gate.require: ${require})`,
  };
}
