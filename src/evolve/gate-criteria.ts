import type { GateConfig } from "../config/config-schema.js";
import type { Decision } from "./validation.js";

// The held-out gates, the decisions after the search (acceptance.ts holds the loop's): an
// evolve run's final harness against its seed, and a pull request's head against its base.

/** The held-out gate of an evolve run: the final harness beats the seed (`requireImprovement`) or does not lose beyond the tolerance. */
export function heldOutGate(gate: GateConfig): (seed: number, final: number) => Decision {
  return (seed, final) => {
    const accepted = gate.requireImprovement
      ? final > seed
      : final >= seed - gate.tolerance - 1e-12;
    const relation = gate.requireImprovement
      ? "must be above"
      : `must not be below (tolerance ${gate.tolerance})`;
    return {
      accepted,
      reason: `final held-out accuracy ${final.toFixed(3)} ${relation} seed ${seed.toFixed(3)}: ${accepted ? "passed" : "failed"}`,
    };
  };
}

/** The pull-request gate: the head's held-out accuracy not below the base's minus the tolerance. */
export function withinTolerance(tolerance: number): (base: number, head: number) => Decision {
  return (base, head) => {
    const accepted = head >= base - tolerance - 1e-12;
    const sign = accepted ? "≥" : "<";
    return {
      accepted,
      reason: `head accuracy ${head.toFixed(3)} ${sign} base ${base.toFixed(3)} − tolerance ${tolerance}`,
    };
  };
}
