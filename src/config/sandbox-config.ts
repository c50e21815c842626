import { z } from "zod";

/**
 * Whether a command harness runs in the OS sandbox (docs/security.md):
 * - `auto` (the default): where the machine can (bubblewrap works); where it cannot, the user's
 *   own harness still runs (`ecdysis eval`, with a warning) but LLM-edited candidates (evolve)
 *   and a pull request's head (gate) are refused;
 * - `required`: no rollout at all without the sandbox;
 * - `off`: never, shown as a warning wherever the run is reported.
 */
export const sandboxModeSchema = z.enum(["auto", "required", "off"]);
export type SandboxMode = z.infer<typeof sandboxModeSchema>;

/**
 * `harness.sandbox`: a mode (`auto`), or `{mode, read}` where `read` lists the folders and files
 * outside the harness folder the agent needs to read (`.venv`, `node_modules`), relative to the
 * config's folder. They are mounted read-only at the same path; a path holding the task files,
 * the config's folder itself or a `.git` folder is refused when the sandbox is built.
 */
export const sandboxConfigSchema = z.union([
  sandboxModeSchema,
  z
    .object({
      mode: sandboxModeSchema.default("auto"),
      read: z.array(z.string().min(1)).default([]),
    })
    .strict(),
]);
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

/**
 * Variables that belong to the runner or the repository, never to the agent: the GitHub token
 * and its kin, the Action's inputs (`INPUT_GITHUB-TOKEN`), the Actions runtime's tokens, and the
 * files every later step of the job reads (`GITHUB_ENV`, `GITHUB_PATH`…).
 */
const runnerOnlyVariable =
  /^(GITHUB_TOKEN|GH_TOKEN|GH_ENTERPRISE_TOKEN|GITHUB_PAT|INPUT_.*|ACTIONS_.*|GITHUB_(ENV|OUTPUT|PATH|STEP_SUMMARY|STATE))$/i;

/** `harness.env`: the names of the variables (beyond the sandbox's own) the agent is given. */
export const agentEnvNamesSchema = z.array(
  z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a variable name (letters, digits, _)")
    .refine((name) => !runnerOnlyVariable.test(name), {
      message: "belongs to the runner or the repository and is never given to the agent",
    }),
);

/** The sandbox settings of a config, the shorthand expanded: `{mode, read}`. */
export interface SandboxSettings {
  mode: SandboxMode;
  read: string[];
}

/** `harness.sandbox` as `{mode, read}` (absent: `auto`, nothing extra to read). */
export function sandboxSettings(config: SandboxConfig | undefined): SandboxSettings {
  if (config === undefined) return { mode: "auto", read: [] };
  if (typeof config === "string") return { mode: config, read: [] };
  return { mode: config.mode, read: config.read };
}
