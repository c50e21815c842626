import { z } from "zod";
import { type HarnessConfig, harnessModuleSchema } from "../config/harness-schema.js";
import { labelWordSchema } from "./label-words.js";

/**
 * A harness as data: every file of its folder (relative path → text), the parsed config for
 * built-in harnesses, and the content hash that keys the rollout cache.
 */
export interface LoadedHarness {
  kind: "builtin" | "command";
  /** Absolute folder it was loaded from. */
  dir: string;
  files: Record<string, string>;
  /** Parsed `harness.yaml` (built-in harnesses only). */
  config?: HarnessConfig;
  /** Command harness argv. */
  command?: string[];
  /** sha256 over sorted (path, content) pairs (and the command argv), hex. */
  hash: string;
}

/** One concrete change to a harness file, as the Editor role proposes it. Never a free-form write. */
export const harnessEditSchema = z.discriminatedUnion("kind", [
  /** Set a field of harness.yaml by dotted path (e.g. `tools.calculator.enabled`). */
  z
    .object({
      kind: z.literal("set"),
      path: z.string().min(1),
      value: z.union([z.string(), z.number(), z.boolean()]),
    })
    .strict(),
  /** Append a rule line to the rules file (the runtime renders it under "## Rules"). */
  z.object({ kind: z.literal("add_rule"), text: z.string().min(1).max(600) }).strict(),
  /** Remove a rule line (exact text). */
  z.object({ kind: z.literal("remove_rule"), text: z.string().min(1) }).strict(),
  /** Replace an exact passage of a text file inside the harness folder. */
  z
    .object({
      kind: z.literal("replace_text"),
      file: z.string().min(1),
      find: z.string().min(1),
      replace: z.string(),
    })
    .strict(),
  /** Write a whole text file inside the harness folder (command harnesses, new knowledge files). */
  z
    .object({ kind: z.literal("write_file"), file: z.string().min(1), content: z.string() })
    .strict(),
]);
export type HarnessEdit = z.infer<typeof harnessEditSchema>;

/** An edit with what it is for: the module it changes and the failure patterns it addresses. */
export const plannedEditSchema = z.object({
  module: harnessModuleSchema.or(z.literal("command")),
  patterns: z.array(z.string()),
  rationale: z.string().max(2000),
  edit: harnessEditSchema,
});
export type PlannedEdit = z.infer<typeof plannedEditSchema>;

/**
 * An applied edit that brings label words (expected answers that are labels, not leaks: see
 * `labelWords`), with the file it changed: allowed, and listed for the reviewer.
 */
export const labelFlagSchema = z.object({
  edit: plannedEditSchema,
  file: z.string(),
  words: z.array(labelWordSchema),
});
export type LabelFlag = z.infer<typeof labelFlagSchema>;

/** Why a guard refused an edit. */
export const guardRejectionSchema = z.object({
  edit: plannedEditSchema,
  guard: z.enum(["path", "schema", "size", "leak", "secret"]),
  reason: z.string(),
});
/** Why a guard refused an edit. */
export type GuardRejection = z.infer<typeof guardRejectionSchema>;
