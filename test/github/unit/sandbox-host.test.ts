import { describe, expect, it } from "vitest";
import type { SandboxProbe } from "../../../src/agent/index.js";
import {
  apparmorProfile,
  apparmorProfilePath,
  prepareSandboxHost,
  type SandboxHost,
} from "../../../src/github/sandbox-host.js";

const missing: SandboxProbe = {
  available: false,
  reason: "bubblewrap (bwrap) is not installed",
  fix: "install",
};
const restricted: SandboxProbe = {
  available: false,
  reason: "bubblewrap cannot start: bwrap: setting up uid map: Permission denied",
  fix: "AppArmor",
};
const works: SandboxProbe = { available: true, engine: "bubblewrap", bwrap: "bwrap" };

/** A runner as the Action meets it: probes answer in turn; commands are recorded and answer from `answers`. */
function scriptedHost(options: {
  probes: SandboxProbe[];
  restricts?: boolean;
  answers?: Record<string, number>;
}): SandboxHost & { commands: string[]; stdin: string[] } {
  const probes = [...options.probes];
  const commands: string[] = [];
  const stdin: string[] = [];
  return {
    commands,
    stdin,
    probe: async () => (probes.length > 1 ? (probes.shift() as SandboxProbe) : probes[0]),
    run: async (command, args, input) => {
      const line = [command, ...args].join(" ");
      commands.push(line);
      if (input) stdin.push(input);
      const code =
        Object.entries(options.answers ?? {}).find(([start]) => line.startsWith(start))?.[1] ?? 0;
      return {
        code,
        stdout: line.includes("command -v bwrap") ? "/usr/bin/bwrap\n" : "",
        stderr: "",
      };
    },
    apparmorRestricts: async () => options.restricts ?? false,
    log: () => {},
  };
}

describe.runIf(process.platform === "linux")("prepareSandboxHost", () => {
  it("does nothing where the sandbox works", async () => {
    const host = scriptedHost({ probes: [works] });
    expect(await prepareSandboxHost(host)).toEqual(works);
    expect(host.commands).toEqual([]);
  });

  it("installs bubblewrap, then lets it through Ubuntu's AppArmor restriction with a profile for bwrap alone", async () => {
    const host = scriptedHost({ probes: [missing, restricted, works], restricts: true });
    expect(await prepareSandboxHost(host)).toEqual(works);
    expect(host.commands).toEqual([
      "sudo -n true",
      "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap",
      "sh -c command -v bwrap",
      `sudo -n tee ${apparmorProfilePath}`,
      `sudo -n apparmor_parser -r ${apparmorProfilePath}`,
    ]);
    expect(host.stdin).toEqual([apparmorProfile("/usr/bin/bwrap")]);
    expect(host.stdin[0]).toContain(
      "profile ecdysis-bwrap /usr/bin/bwrap flags=(unconfined) {\n  userns,\n}",
    );
  });

  it("turns the restriction off only when the profile does not load", async () => {
    const host = scriptedHost({
      probes: [restricted, works],
      restricts: true,
      answers: { "sudo -n apparmor_parser": 1 },
    });
    expect(await prepareSandboxHost(host)).toEqual(works);
    expect(host.commands.at(-1)).toBe(
      "sudo -n sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    );
  });

  it("leaves a runner without passwordless sudo as it is, the probe's reason kept", async () => {
    const host = scriptedHost({ probes: [missing], answers: { "sudo -n true": 1 } });
    expect(await prepareSandboxHost(host)).toEqual(missing);
    expect(host.commands).toEqual(["sudo -n true"]);
  });
});
