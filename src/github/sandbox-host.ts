import { execFile } from "node:child_process";
import { readFile, realpath } from "node:fs/promises";
import { forgetSandboxProbes, probeSandbox, type SandboxProbe } from "../agent/index.js";
import { loadConfig, sandboxSettings } from "../config/index.js";

/** Runs a command (no shell) with optional stdin; its exit code and stderr. */
export type HostCommand = (
  command: string,
  args: string[],
  stdin?: string,
) => Promise<{ code: number; stdout: string; stderr: string }>;

/** What `prepareSandboxHost` may use; each defaults to the real machine. */
export interface SandboxHost {
  probe(): Promise<SandboxProbe>;
  run: HostCommand;
  /** `kernel.apparmor_restrict_unprivileged_userns` is 1 (Ubuntu 23.10 and later, GitHub's ubuntu-24.04). */
  apparmorRestricts(): Promise<boolean>;
  log(line: string): void;
}

/** Where the Action writes the AppArmor profile that lets bubblewrap (only) create user namespaces. */
export const apparmorProfilePath = "/etc/apparmor.d/ecdysis-bwrap";

/**
 * The AppArmor profile for `bwrap` (its resolved path): unconfined, plus `userns`, the one
 * permission Ubuntu's restriction withholds — as Ubuntu 25.04's own bwrap profile and
 * bubblewrap's maintainers suggest. It widens nothing for any other program (unlike turning the
 * sysctl off, which the Action does only when loading a profile fails).
 */
export function apparmorProfile(bwrap: string): string {
  return [
    "abi <abi/4.0>,",
    "include <tunables/global>",
    `profile ecdysis-bwrap ${bwrap} flags=(unconfined) {`,
    "  userns,",
    "}",
    "",
  ].join("\n");
}

/**
 * Makes this runner able to build the sandbox, when it cannot and the Action may fix it with
 * passwordless sudo (GitHub's hosted runners): installs `bubblewrap` when missing (apt-get), then
 * on Ubuntu 24.04's AppArmor restriction loads `apparmorProfile` for bwrap, and only if that
 * fails turns the restriction off (`sysctl kernel.apparmor_restrict_unprivileged_userns=0`).
 * Each step is logged; the final probe is returned (the run then sandboxes, or refuses as
 * `harness.sandbox` says). Nothing is done where the sandbox already works.
 */
export async function prepareSandboxHost(host: SandboxHost): Promise<SandboxProbe> {
  let probe = await host.probe();
  if (probe.available || process.platform !== "linux") return probe;
  host.log(`sandbox: ${probe.reason}`);
  if ((await host.run("sudo", ["-n", "true"])).code !== 0) {
    host.log("sandbox: no passwordless sudo here to install or enable bubblewrap");
    return probe;
  }
  const sudo = (args: string[], stdin?: string) => host.run("sudo", ["-n", ...args], stdin);
  const again = async () => {
    forgetSandboxProbes();
    probe = await host.probe();
    return probe.available;
  };
  if (/not installed/.test(probe.reason)) {
    host.log("sandbox: installing bubblewrap (apt-get install bubblewrap)");
    const install = [
      "env",
      "DEBIAN_FRONTEND=noninteractive",
      "apt-get",
      "install",
      "-y",
      "-q",
      "bubblewrap",
    ];
    if ((await sudo(install)).code !== 0) {
      await sudo(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update", "-q"]);
      await sudo(install);
    }
    if (await again()) return probe;
  }
  if (!(await host.apparmorRestricts())) return probe;
  const bwrap = await resolveBwrap(host);
  host.log(
    `sandbox: loading an AppArmor profile granting ${bwrap} user namespaces (${apparmorProfilePath})`,
  );
  const wrote = await sudo(["tee", apparmorProfilePath], apparmorProfile(bwrap));
  if (wrote.code === 0 && (await sudo(["apparmor_parser", "-r", apparmorProfilePath])).code === 0)
    if (await again()) return probe;
  host.log(
    "sandbox: the profile did not help; setting kernel.apparmor_restrict_unprivileged_userns=0",
  );
  await sudo(["sysctl", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"]);
  await again();
  return probe;
}

async function resolveBwrap(host: SandboxHost): Promise<string> {
  const found = (await host.run("sh", ["-c", "command -v bwrap"])).stdout.trim();
  return found ? await realpath(found).catch(() => found) : "/usr/bin/bwrap";
}

/** The real machine: the probe, commands through execFile, the sysctl file. */
export function realSandboxHost(log: (line: string) => void): SandboxHost {
  return {
    probe: () => probeSandbox(),
    run: (command, args, stdin) =>
      new Promise((resolve) => {
        const child = execFile(command, args, { timeout: 300_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) || 1 : 0, stdout, stderr }),
        );
        child.stdin?.end(stdin ?? "");
      }),
    apparmorRestricts: () =>
      readFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "utf8")
        .then((text) => text.trim() === "1")
        .catch(() => false),
    log,
  };
}

/**
 * Before a mode runs: when the checkout's config has a command harness whose sandbox is not
 * `off`, prepare the runner for it (`prepareSandboxHost`). A config that does not load is left
 * to the mode to report.
 */
export async function prepareSandboxFor(configPath: string, host: SandboxHost): Promise<void> {
  const loaded = await loadConfig(configPath).catch(() => undefined);
  const harness = loaded?.config.harness;
  if (harness?.kind !== "command" || sandboxSettings(harness.sandbox).mode === "off") return;
  const probe = await prepareSandboxHost(host);
  host.log(
    probe.available
      ? "sandbox: bubblewrap works; every command-harness process runs in it"
      : `sandbox: unavailable (${probe.reason}); fix: ${probe.fix}`,
  );
}
