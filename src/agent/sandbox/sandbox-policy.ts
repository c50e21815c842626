import { z } from "zod";
import type { LoadedConfig } from "../../config/config-schema.js";
import { sandboxModeSchema, sandboxSettings } from "../../config/sandbox-config.js";
import { SandboxUnavailableError } from "../../errors/sandbox-error.js";
import { type AgentSandbox, bubblewrapSandbox, declaredReads } from "./agent-sandbox.js";
import { exposureOf } from "./sandbox-mounts.js";
import { bwrapCommand, probeSandbox, type SandboxProbe } from "./sandbox-probe.js";

/** How a run's command harness ran, for its records and reports: the mode, the engine, and a warning when unsandboxed. */
export const sandboxStatusSchema = z.object({
  mode: sandboxModeSchema,
  engine: z.enum(["bubblewrap", "none"]),
  /** Present when the agent's code ran (or would run) without the sandbox: what and why. */
  warning: z.string().optional(),
});
export type SandboxStatus = z.infer<typeof sandboxStatusSchema>;

/** A run's sandbox: the one its command harness runs in (none when off or unavailable) and its status. */
export interface SandboxDecision {
  sandbox?: AgentSandbox;
  status: SandboxStatus;
}

/** The warning of `harness.sandbox: off`, as reports show it. */
export const sandboxOffWarning =
  "harness.sandbox is off: the agent's code ran unsandboxed, able to read what the runner can (tokens in other processes' environments, the task files, the checkout) and to leave processes behind";

/**
 * Decides, before any rollout, how a run's command harness runs (docs/security.md):
 * - `off`: unsandboxed, with `sandboxOffWarning`;
 * - the sandbox works here: sandboxed (`harness.sandbox.read` checked first);
 * - it does not, `required`, or `auto` with `untrusted` code (what evolve's Editor or a pull
 *   request wrote — named in `untrusted`): `SandboxUnavailableError`, one line naming the fix;
 * - it does not, `auto`, the user's own harness: unsandboxed, with a warning.
 * A built-in harness runs no code of the user's: no sandbox, no warning.
 */
export async function decideSandbox(input: {
  loaded: LoadedConfig;
  /** What untrusted code the run executes (`evolve runs LLM-edited candidates`); absent: the user's own harness. */
  untrusted?: string;
  /** Where the project's files are, when not the config's folder (the gate's head). */
  root?: string;
  /** The environment `ECDYSIS_BWRAP` is read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  probe?: () => Promise<SandboxProbe>;
}): Promise<SandboxDecision> {
  const { config } = input.loaded;
  const settings = sandboxSettings(config.harness.sandbox);
  if (config.harness.kind !== "command") return { status: { mode: settings.mode, engine: "none" } };
  if (settings.mode === "off")
    return { status: { mode: "off", engine: "none", warning: sandboxOffWarning } };
  const probe = await (input.probe ?? (() => probeSandbox(bwrapCommand(input.env))))();
  if (probe.available) {
    const root = input.root ?? input.loaded.root;
    const exposure = exposureOf({
      root,
      taskFiles: [config.tasks.train, config.tasks.heldout, input.loaded.root],
    });
    const read = declaredReads({
      read: settings.read,
      root,
      configFile: input.loaded.path,
      exposure,
    });
    return {
      sandbox: bubblewrapSandbox({ bwrap: probe.bwrap, read, exposure }),
      status: { mode: settings.mode, engine: "bubblewrap" },
    };
  }
  if (settings.mode === "required")
    throw new SandboxUnavailableError(probe.reason, probe.fix, "harness.sandbox is required");
  if (input.untrusted)
    throw new SandboxUnavailableError(
      probe.reason,
      probe.fix,
      `${input.untrusted}, which never run unsandboxed under harness.sandbox: auto`,
    );
  return {
    status: {
      mode: settings.mode,
      engine: "none",
      warning: `the sandbox is unavailable (${probe.reason}): the harness ran unsandboxed. Fix: ${probe.fix}`,
    },
  };
}
