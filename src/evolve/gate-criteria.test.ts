import { describe, expect, it } from "vitest";
import { gateConfigSchema } from "../config/config-schema.js";
import { heldOutGate, withinTolerance } from "./gate-criteria.js";

describe("gate criteria", () => {
  it("the gates: tolerance, and improvement when required", () => {
    const gate = gateConfigSchema.parse({ tolerance: 0.05, requireImprovement: false });
    expect(heldOutGate(gate)(0.5, 0.46).accepted).toBe(true);
    expect(heldOutGate(gate)(0.5, 0.44).accepted).toBe(false);
    const strict = gateConfigSchema.parse({ requireImprovement: true });
    expect(heldOutGate(strict)(0.5, 0.5)).toEqual({
      accepted: false,
      reason: "final held-out accuracy 0.500 must be above seed 0.500: failed",
    });
    expect(withinTolerance(0.02)(0.8, 0.79)).toEqual({
      accepted: true,
      reason: "head accuracy 0.790 ≥ base 0.800 − tolerance 0.02",
    });
  });
});
