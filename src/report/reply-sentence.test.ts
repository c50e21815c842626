import { describe, expect, it } from "vitest";
import type { EvolveResult } from "../evolve/result-schema.js";
import { unusableReplySentence } from "./reply-sentence.js";

type Iteration = EvolveResult["iterations"][number];

const iteration = (parts: {
  notes?: Record<string, number>;
  turns?: { role: "editor" | "skeptic"; replies: string[] }[];
}) =>
  ({
    diagnosis: parts.notes
      ? { patterns: [], evidenceCount: 0, stats: { replies: { "failure-notes": parts.notes } } }
      : undefined,
    refinement: parts.turns ? { turns: parts.turns } : undefined,
  }) as unknown as Iteration;

describe("unusableReplySentence", () => {
  it("says how many refiner replies could not be used, per role and kind", () => {
    const sentence = unusableReplySentence({
      iterations: [
        iteration({ notes: { usable: 2, refusal: 3 } }),
        iteration({ turns: [{ role: "editor", replies: ["cut", "usable"] }] }),
      ],
    });
    expect(sentence).toBe(
      "4 of 7 refiner replies were not usable (failure-notes 3 refused; editor 1 cut at the token limit)",
    );
  });

  it("says nothing when every reply was usable", () => {
    expect(
      unusableReplySentence({ iterations: [iteration({ notes: { usable: 4 } })] }),
    ).toBeUndefined();
  });
});
