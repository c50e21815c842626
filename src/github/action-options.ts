import { z } from "zod";
import { strategyNameSchema } from "../config/config-schema.js";
import { InputError } from "../errors/input-error.js";
import { parseShard } from "../eval/shard-tasks.js";

const optionalText = z
  .string()
  .transform((value) => value.trim())
  .transform((value) => (value === "" ? undefined : value));

const list = z.string().transform((value) =>
  value
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== ""),
);

const flag = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(["", "true", "false"]))
  .transform((value) => value === "true");

/** A true/false input that is true when unset. */
const flagDefaultTrue = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(["", "true", "false"]))
  .transform((value) => value !== "false");

function positiveNumber(integer: boolean) {
  return optionalText.pipe(
    z
      .string()
      .regex(
        integer ? /^\d+$/ : /^\d+(\.\d+)?$/,
        integer ? "must be a whole number" : "must be a number",
      )
      .transform(Number)
      .pipe(integer ? z.number().int().positive() : z.number().positive())
      .optional(),
  );
}

/**
 * How often a long run saves its rollout cache by default (docs/scale-out.md: a save of a
 * 20,000-task run's cache costs seconds; at 30 minutes a job killed at the 6-hour limit loses at
 * most the last half hour, and saves at most 12 extra cache entries).
 */
export const defaultCacheSaveMinutes = 30;

/** Every input of action.yml, as the raw strings `@actions/core` returns ("" when unset). */
export const actionInputsSchema = z.object({
  mode: z.enum(["evolve", "gate", "eval"]),
  config: z.string().trim().min(1).default("ecdysis.yml"),
  "base-url": optionalText.pipe(z.string().url().optional()),
  "api-key": optionalText,
  model: optionalText,
  "github-token": optionalText,
  branch: optionalText,
  base: optionalText,
  labels: list,
  reviewers: list,
  draft: flag,
  "dry-run": flag,
  "budget-rollouts": positiveNumber(true),
  "budget-cost-usd": positiveNumber(false),
  "max-iterations": positiveNumber(true),
  strategy: optionalText.pipe(strategyNameSchema.optional()),
  "reopen-closed": flag,
  "delete-branch": flagDefaultTrue,
  phase: z.enum(["all", "search", "measure", "finish"]),
  shard: optionalText.pipe(
    z
      .string()
      .regex(/^\d+\/\d+$/, "must be I/N, e.g. 2/4 (shard 2 of 4)")
      .transform((text, context) => {
        try {
          return parseShard(text);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as InputError).problem });
          return z.NEVER;
        }
      })
      .optional(),
  ),
  concurrency: positiveNumber(true),
  "run-dir": z.string().trim().min(1).default(".ecdysis/evolve-run"),
  "cache-save-minutes": optionalText
    .pipe(
      z
        .string()
        .regex(
          /^\d+(\.\d+)?$/,
          "must be a number of minutes (0: save only at the end and on a signal)",
        )
        .transform(Number)
        .optional(),
    )
    .transform((minutes) => minutes ?? defaultCacheSaveMinutes),
});

/** The validated options object the Action runs on. */
export type ActionOptions = z.output<typeof actionInputsSchema>;

/** Names of the inputs, in action.yml order. */
export const inputNames = Object.keys(actionInputsSchema.shape) as (keyof ActionOptions)[];

/**
 * Parse the inputs (read through `getInput(name)`) into one validated options object. A bad
 * value is the user's mistake: an InputError naming the workflow input and what to write.
 */
export function parseActionOptions(getInput: (name: string) => string): ActionOptions {
  const raw: Record<string, string> = {};
  for (const name of inputNames) raw[name] = getInput(name);
  if (raw.mode === "") raw.mode = "evolve";
  if (raw.phase === "") raw.phase = "all";
  for (const name of ["config", "run-dir"]) if (raw[name] === "") delete raw[name];
  const parsed = actionInputsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue.path[0] ?? "");
    throw new InputError("workflow inputs", `${issue.message} (got '${raw[field] ?? ""}')`, {
      field,
    });
  }
  checkPhase(parsed.data);
  return parsed.data;
}

/** The phase inputs that only make sense together (docs/scale-out.md). */
function checkPhase(options: ActionOptions): void {
  const refuse = (field: string, message: string) => {
    throw new InputError("workflow inputs", message, { field });
  };
  if (options.phase !== "all" && options.mode !== "evolve")
    refuse(
      "phase",
      `'phase: ${options.phase}' is a phase of mode evolve (got mode ${options.mode})`,
    );
  if (options.phase === "measure" && !options.shard)
    refuse("shard", "'phase: measure' needs 'shard: I/N' (e.g. 2/4, from the job matrix)");
  if (options.shard && options.phase !== "measure")
    refuse("shard", `'shard' goes with 'phase: measure' (got phase ${options.phase})`);
}
