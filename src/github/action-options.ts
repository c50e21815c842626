import { z } from "zod";
import { strategyNameSchema } from "../config/config-schema.js";
import { InputError } from "../errors/input-error.js";

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
  if (raw.config === "") delete raw.config;
  const parsed = actionInputsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue.path[0] ?? "");
  throw new InputError("workflow inputs", `${issue.message} (got '${raw[field] ?? ""}')`, {
    field,
  });
}
