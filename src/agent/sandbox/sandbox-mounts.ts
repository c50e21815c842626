import { constants } from "node:fs";
import { access, lstat, open, readlink, realpath } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * What a sandbox must never show: paths no mount may contain (the config's folder, the task
 * files, the runner's home, temp and workspace, the files later job steps read) and paths no
 * mount may lie in (`.git` folders, those files).
 */
export interface Exposure {
  /** A mount that is one of these, or a folder above one, is refused. */
  neverContain: string[];
}

/** The exposure rules of a run: its config folder and task files, and the runner's own places. */
export function exposureOf(input: {
  root: string;
  taskFiles: string[];
  env?: NodeJS.ProcessEnv;
}): Exposure {
  const env = input.env ?? process.env;
  const runner = [
    "GITHUB_WORKSPACE",
    "RUNNER_TEMP",
    "GITHUB_ENV",
    "GITHUB_OUTPUT",
    "GITHUB_PATH",
    "GITHUB_STEP_SUMMARY",
    "GITHUB_STATE",
  ].flatMap((name) => (env[name] ? [env[name] as string] : []));
  return {
    neverContain: [input.root, ...input.taskFiles, process.cwd(), homedir(), tmpdir(), ...runner]
      .filter(Boolean)
      .map((path) => resolve(path)),
  };
}

const isWithin = (path: string, folder: string) => {
  const inside = relative(folder, path);
  return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside));
};

/** Why `path` may not be mounted, or undefined when it may. */
export function exposureProblem(path: string, exposure: Exposure): string | undefined {
  if (path.split(sep).includes(".git")) return "it is a .git folder or inside one";
  if (path === "/") return "it is the whole filesystem";
  const held = exposure.neverContain.find((secret) => isWithin(secret, path));
  if (held) return `it holds ${held}, which the agent must not read`;
  return undefined;
}

const systemPrefixes = [
  "/usr/",
  "/bin/",
  "/sbin/",
  "/lib/",
  "/lib32/",
  "/lib64/",
  "/libx32/",
  "/etc/",
];
const isSystem = (path: string) => systemPrefixes.some((prefix) => path.startsWith(prefix));

/** `file` on PATH (an executable), absolute; undefined when none. */
async function onPath(name: string, path: string | undefined): Promise<string | undefined> {
  for (const folder of (path ?? "").split(delimiter).filter(isAbsolute)) {
    const candidate = join(folder, name);
    const stat = await lstat(candidate).catch(() => undefined);
    if (!stat || stat.isDirectory()) continue;
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

/** The interpreter a script's `#!` line names (`/usr/bin/env python3` → `python3`), or undefined. */
async function shebangOf(file: string): Promise<string | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.subarray(0, bytesRead).toString("utf8");
    if (!head.startsWith("#!")) return undefined;
    const words = head.slice(2).split("\n")[0].trim().split(/\s+/);
    if (basename(words[0] ?? "") !== "env") return words[0] || undefined;
    return words.slice(1).find((word) => !word.startsWith("-") && !word.includes("="));
  } finally {
    await handle.close();
  }
}

/**
 * What to mount for a program that lives outside the system folders: its installation prefix
 * when it sits in a `bin/` folder (`/opt/hostedtoolcache/Python/3.12/x64`, a `.venv`) or a
 * version manager's `shims/` (`~/.pyenv`, `~/.rbenv`), else the file alone; the same for the
 * file its symlinks lead to. A prefix that would show a forbidden path shrinks to the file.
 */
async function programMounts(file: string, exposure: Exposure): Promise<string[]> {
  const real = await realpath(file).catch(() => file);
  const mounts: string[] = [];
  for (const path of new Set([file, real])) {
    if (isSystem(path)) continue;
    const folder = basename(dirname(path));
    const prefix = folder === "bin" || folder === "shims" ? dirname(dirname(path)) : path;
    if (!exposureProblem(prefix, exposure)) mounts.push(prefix);
    else if (!exposureProblem(path, exposure)) mounts.push(path);
  }
  return mounts;
}

/**
 * The host paths a command needs to start: its program (`argv[0]`, found on PATH or relative
 * to `cwd`) and, for a script, the interpreter of its `#!` line, each by `programMounts`. The
 * candidate's own files need nothing: its folder is mounted already. `extra` programs (the
 * relay's Node) are added the same way.
 */
export async function commandMounts(input: {
  argv0: string;
  cwd: string;
  path: string | undefined;
  exposure: Exposure;
  extra?: string[];
}): Promise<string[]> {
  const mounts: string[] = [];
  const locate = (word: string) =>
    word.includes("/") ? Promise.resolve(resolve(input.cwd, word)) : onPath(word, input.path);
  let program = await locate(input.argv0);
  for (let depth = 0; program && depth < 3; depth++) {
    if (!isWithin(program, input.cwd))
      mounts.push(...(await programMounts(program, input.exposure)));
    const interpreter = await shebangOf(program);
    program = interpreter ? await locate(interpreter) : undefined;
  }
  for (const file of input.extra ?? []) mounts.push(...(await programMounts(file, input.exposure)));
  return [...new Set(mounts)];
}

/** The target of a symlink in the candidate's folder (its linked `node_modules`), or undefined. */
export async function linkedTarget(path: string): Promise<string | undefined> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isSymbolicLink()) return undefined;
  return resolve(dirname(path), await readlink(path));
}
