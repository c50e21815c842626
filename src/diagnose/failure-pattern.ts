import { createHash } from "node:crypto";
import { z } from "zod";

/** One failed run shown as an example of a pattern (bounded, cleaned text). */
export const patternExampleSchema = z.object({
  rolloutKey: z.string(),
  taskId: z.string(),
  category: z.string(),
  task: z.string(),
  output: z.string(),
  answer: z.string().nullable(),
  events: z.array(z.string()),
  note: z.string(),
  toolCalls: z.array(
    z.object({ name: z.string(), arguments: z.string(), result: z.string(), error: z.boolean() }),
  ),
});
export type PatternExample = z.infer<typeof patternExampleSchema>;

/** Why a pattern was classified the way it was. */
export const classificationReasonSchema = z.object({
  code: z.enum([
    "singleton",
    "narrow",
    "flaky",
    "model-only",
    "supported",
    "reproducible",
    "probe-fails",
    "untested",
    "unknown-task",
    // Attempted with typed settings only, below the support threshold (evolve/strategies/ecdysis-narrow.ts):
    // alongside the systematic patterns, or before a stop with budget left.
    "rider",
    "last-resort",
  ]),
  detail: z.string(),
});
export type ClassificationReason = z.infer<typeof classificationReasonSchema>;

/**
 * A failure pattern found across instances: its members, support and examples, and whether it
 * is systematic (worth repairing in the harness) or model-specific (reported, never repaired).
 */
export const failurePatternSchema = z.object({
  /** Stable hash of the sorted member rollout keys. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Harness module suspected (agent_loop, tools, observation, context, completion, prompt, command). */
  module: z.string(),
  /** Whether the LLM merge named it or the deterministic fallback did. */
  namedBy: z.enum(["llm", "fallback"]),
  /** The deterministic groups (`signalKey|cause`) merged into it. */
  groupKeys: z.array(z.string()),
  signals: z.array(z.string()),
  causes: z.array(z.string()),
  memberKeys: z.array(z.string()),
  taskIds: z.array(z.string()),
  support: z.object({
    tasks: z.number().int(),
    categories: z.number().int(),
    categoryNames: z.array(z.string()),
  }),
  examples: z.array(patternExampleSchema).max(5),
  /**
   * The narrow patterns of the merge pooled into this one (src/diagnose/pool-narrow.ts): their
   * names, and the decisive signals every run shares.
   */
  pooled: z.object({ from: z.array(z.string()), signals: z.array(z.string()) }).optional(),
  kind: z.enum(["systematic", "model-specific"]),
  reasons: z.array(classificationReasonSchema),
  /** Re-sampling outcome: members re-run and how many of them passed on re-samples. */
  reproducibility: z
    .object({ members: z.number().int(), vanished: z.number().int(), resamples: z.number().int() })
    .optional(),
  /** Probe model outcome on the pattern's tasks. */
  probe: z
    .object({ tasks: z.number().int(), passed: z.number().int(), model: z.string() })
    .optional(),
});
export type FailurePattern = z.infer<typeof failurePatternSchema>;

/** A pattern before classification. */
export type UnclassifiedPattern = Omit<
  FailurePattern,
  "kind" | "reasons" | "reproducibility" | "probe"
>;

/** Stable pattern id: a short sha256 over its sorted member rollout keys. */
export function patternId(memberKeys: string[]): string {
  const digest = createHash("sha256")
    .update([...memberKeys].sort().join("\n"))
    .digest("hex");
  return `p-${digest.slice(0, 12)}`;
}
