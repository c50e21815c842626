import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { probeArgs } from "./bwrap-args.js";

/** Whether this machine can build the sandbox, and if not, why and what fixes it. */
export type SandboxProbe =
  | { available: true; engine: "bubblewrap"; bwrap: string }
  | { available: false; reason: string; fix: string };

/** The bubblewrap the sandbox runs: `ECDYSIS_BWRAP` (tests, unusual installs), else `bwrap` on PATH. */
export function bwrapCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.ECDYSIS_BWRAP || "bwrap";
}

const probes = new Map<string, Promise<SandboxProbe>>();

/**
 * Tries the sandbox once per process and bubblewrap path: runs `true` inside the same
 * namespaces a rollout gets (user, PID, network, IPC, UTS; no nested user namespaces). A
 * failure is classified: not Linux, bubblewrap missing, or user namespaces refused (Ubuntu's
 * AppArmor restriction, a container without them) — each with the fix to apply.
 */
export function probeSandbox(bwrap: string = bwrapCommand()): Promise<SandboxProbe> {
  let probe = probes.get(bwrap);
  if (!probe) {
    probe = runProbe(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}

/** Forgets the remembered probes (after the Action installed or enabled bubblewrap). */
export function forgetSandboxProbes(): void {
  probes.clear();
}

async function runProbe(bwrap: string): Promise<SandboxProbe> {
  if (process.platform !== "linux")
    return {
      available: false,
      reason: `the sandbox needs Linux with bubblewrap (this is ${process.platform})`,
      fix: "run Ecdysis on Linux (a GitHub ubuntu runner, or a Linux container)",
    };
  const result = await tryRun(bwrap, probeArgs());
  if (result.code === 0) return { available: true, engine: "bubblewrap", bwrap };
  if (result.missing)
    return {
      available: false,
      reason: `bubblewrap (${bwrap}) is not installed`,
      fix: "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)",
    };
  return {
    available: false,
    reason: `bubblewrap cannot start: ${result.stderr}`,
    fix: await namespaceFix(),
  };
}

async function namespaceFix(): Promise<string> {
  const restricted = await readFile(
    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
    "utf8",
  )
    .then((text) => text.trim() === "1")
    .catch(() => false);
  if (restricted)
    return "AppArmor restricts user namespaces (Ubuntu 24.04): load an AppArmor profile granting bwrap `userns` (docs/security.md), or sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0";
  return "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; in Docker: --security-opt seccomp=unconfined or run the container with user namespaces)";
}

function tryRun(
  command: string,
  args: string[],
): Promise<{ code: number | null; missing: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env: {} });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(0, 400);
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ code: null, missing: error.code === "ENOENT", stderr: error.message }),
    );
    child.on("close", (code) => resolve({ code, missing: false, stderr: stderr.trim() }));
  });
}
