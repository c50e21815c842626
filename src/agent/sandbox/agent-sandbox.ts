import { resolve, sep } from "node:path";
import { InputError } from "../../errors/input-error.js";
import { bwrapArgs, systemLayout } from "./bwrap-args.js";
import { commandMounts, type Exposure, exposureProblem, linkedTarget } from "./sandbox-mounts.js";

/** Runs a command harness's processes in an OS sandbox: turns an argv into the argv that runs it sandboxed. */
export interface AgentSandbox {
  readonly engine: "bubblewrap";
  /**
   * The argv that runs `argv` from `cwd` (the candidate's folder) inside the sandbox: the
   * system folders, the candidate's files, its program's installation, the declared reads, all
   * read-only; a private /tmp and HOME; `network` its only route (to the model); nothing else.
   */
  wrap(input: {
    argv: string[];
    cwd: string;
    path: string | undefined;
    network?: { port: number; socket: string };
  }): Promise<string[]>;
}

/**
 * `harness.sandbox.read`, resolved against the config's folder: each must be mountable (not
 * the config's folder, nor holding a task file, nor in a `.git` folder), else an InputError
 * naming it, before any rollout.
 */
export function declaredReads(input: {
  read: string[];
  root: string;
  configFile: string;
  exposure: Exposure;
}): string[] {
  return input.read.map((entry) => {
    const path = resolve(input.root, entry);
    const problem = exposureProblem(path, input.exposure);
    if (problem)
      throw new InputError(
        input.configFile,
        `'${entry}' cannot be mounted for the agent: ${problem}`,
        {
          field: "harness.sandbox.read",
        },
      );
    return path;
  });
}

/** Paths sorted so a folder is mounted before what lies in it, without repeats or what the system folders show. */
function ordered(paths: string[]): string[] {
  const system = systemLayout().system.map((mount) => mount.path);
  const shown = (path: string) =>
    system.some((folder) => path === folder || path.startsWith(folder + sep));
  return [...new Set(paths)].filter((path) => !shown(path)).sort((a, b) => a.length - b.length);
}

/** The bubblewrap sandbox (docs/security.md): `bwrap` the command, `read` the declared reads (checked). */
export function bubblewrapSandbox(options: {
  bwrap: string;
  read: string[];
  exposure: Exposure;
  /** The Node that runs the in-sandbox relay (default: this one). */
  node?: string;
}): AgentSandbox {
  const node = options.node ?? process.execPath;
  return {
    engine: "bubblewrap",
    async wrap({ argv, cwd, path, network }) {
      const linked = await linkedTarget(resolve(cwd, "node_modules"));
      const programs = await commandMounts({
        argv0: argv[0],
        cwd,
        path,
        exposure: options.exposure,
        extra: network ? [node] : [],
      });
      const linkedOk = linked && !exposureProblem(linked, options.exposure) ? [linked] : [];
      const readOnly = ordered([cwd, ...linkedOk, ...options.read, ...programs]);
      const args = bwrapArgs({
        layout: { ...systemLayout(), readOnly },
        cwd,
        argv,
        network: network ? { ...network, node } : undefined,
      });
      return [options.bwrap, ...args];
    },
  };
}
