import { lstatSync, readlinkSync } from "node:fs";
import { insideRelaySource } from "./model-relay.js";

/** A system folder as the sandbox shows it: bound read-only, or the symlink it is on the host. */
export interface SystemMount {
  path: string;
  linkTo?: string;
}

/** What the sandbox's filesystem holds besides its private /tmp, /proc and /dev. */
export interface SandboxLayout {
  system: SystemMount[];
  /** Secret-bearing system files and folders shown empty (`/etc/shadow`…). */
  masked: Array<{ path: string; folder: boolean }>;
  /** Host paths mounted read-only at the same path: the candidate, its interpreter, declared reads. */
  readOnly: string[];
}

/** One sandboxed command: what it sees, where it starts, and its one way to the network. */
export interface SandboxCommand {
  layout: SandboxLayout;
  cwd: string;
  argv: string[];
  /**
   * The model route: inside, `127.0.0.1:<port>` is relayed to the host's unix socket `socket`
   * (mounted at `insideSocket`) by a Node relay (`node`) that then starts `argv`. Absent: no
   * network at all.
   */
  network?: { port: number; socket: string; node: string };
}

/** Where the model's unix socket is mounted inside the sandbox. */
export const insideSocket = "/run/ecdysis/model.sock";
/** The agent's private home, under its private /tmp. */
export const insideHome = "/tmp/home";

/** Folders of the host every program needs; anything else is mounted only by name. */
const systemFolders = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];
/** Files of /etc that hold secrets (password hashes, sudo rules, host keys): shown empty. */
const maskedEtc = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssh",
  "/etc/security/opasswd",
];

let cachedSystem: Pick<SandboxLayout, "system" | "masked"> | undefined;

/** The system folders and masks of this host (read once: a few lstat calls). */
export function systemLayout(): Pick<SandboxLayout, "system" | "masked"> {
  if (cachedSystem) return cachedSystem;
  const system: SystemMount[] = [];
  for (const path of systemFolders) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) system.push({ path, linkTo: readlinkSync(path) });
    else if (stat?.isDirectory()) system.push({ path });
  }
  const masked: SandboxLayout["masked"] = [];
  for (const path of maskedEtc) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat && !stat.isSymbolicLink()) masked.push({ path, folder: stat.isDirectory() });
  }
  cachedSystem = { system, masked };
  return cachedSystem;
}

/**
 * Every namespace bubblewrap offers: its own user namespace (no capabilities, no nested user
 * namespaces), PID (no other process's /proc; the whole tree dies with its first process),
 * network (only its own loopback), IPC, UTS; a new session (no terminal injection); and it dies
 * with Ecdysis.
 */
const namespaceArgs = [
  "--unshare-user",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--disable-userns",
  "--hostname",
  "sandbox",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
];

function filesystemArgs(layout: SandboxLayout): string[] {
  const args: string[] = [];
  for (const mount of layout.system)
    args.push(
      ...(mount.linkTo
        ? ["--symlink", mount.linkTo, mount.path]
        : ["--ro-bind", mount.path, mount.path]),
    );
  for (const mask of layout.masked)
    args.push(...(mask.folder ? ["--tmpfs", mask.path] : ["--ro-bind", "/dev/null", mask.path]));
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", insideHome);
  for (const path of layout.readOnly) args.push("--ro-bind-try", path, path);
  return args;
}

/** The bubblewrap arguments (without the `bwrap` itself) that run `command` sandboxed. */
export function bwrapArgs(command: SandboxCommand): string[] {
  const args = [...namespaceArgs, ...filesystemArgs(command.layout)];
  const network = command.network;
  if (network) args.push("--ro-bind", network.socket, insideSocket);
  args.push("--remount-ro", "/", "--chdir", command.cwd, "--");
  if (!network) return [...args, ...command.argv];
  return [
    ...args,
    network.node,
    "-e",
    insideRelaySource,
    String(network.port),
    insideSocket,
    ...command.argv,
  ];
}

/** The arguments of the probe: `true` in the same namespaces and system folders as a rollout. */
export function probeArgs(): string[] {
  const layout = { ...systemLayout(), readOnly: [] };
  return [...namespaceArgs, ...filesystemArgs(layout), "--remount-ro", "/", "--", "true"];
}
