import type { ScorerSpec } from "../../config/task-schema.js";

/** What the sim understood a task statement to ask, parsed from the text alone. */
export type Problem =
  | {
      kind: "compute";
      family: "arithmetic" | "unit-conversion";
      keyPhrase: string;
      /** Calculator-ready expression (digits, operators, parentheses). */
      expression: string;
      value: number;
    }
  | {
      kind: "direct";
      family: "date-reasoning" | "extraction";
      keyPhrase: string;
      answer: string;
      numeric: boolean;
      /** Plausible wrong answers a slip produces. */
      decoys: string[];
    }
  | { kind: "chain"; family: "multi-hop"; keyPhrase: string; start: string; relations: string[] };

/** One generated task before ids and splits are assigned. */
export interface GeneratedItem {
  question: string;
  expected: string | number;
  keyPhrase: string;
  scorer?: ScorerSpec;
  hops?: number;
}

/** Formats a number the way the sim writes answers (no float noise, no trailing zeros). */
export function formatNumber(value: number): string {
  return String(Number(value.toFixed(6)));
}

/** The numeric scorer every numeric task carries. */
export const numericScorer: ScorerSpec = { kind: "numeric", tolerance: 1e-6, relative: false };
