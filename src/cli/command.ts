import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { z } from "zod";
import type { LoadedConfig } from "../config/config-schema.js";
import { isWorldName, worldNameProblem } from "../config/world-names.js";
import { InputError } from "../errors/input-error.js";

/** A writable text stream (process.stdout/stderr or a test buffer). */
export interface TextStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** What a command may touch of the outside world; injected so commands run in-process in tests. */
export interface CliIo {
  stdout: TextStream;
  stderr: TextStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Aborted on SIGINT/SIGTERM: long commands stop at a rollout boundary (the cache keeps what finished). */
  signal: AbortSignal;
  /** The command line that runs this CLI again (`bench --jobs`); absent when run in-process. */
  self?: readonly string[];
}

/** Parsed flags and positionals of one command. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** One `ecdysis <name>` command: its flags, its help and what it runs. Returns the exit code. */
export interface CliCommand {
  name: string;
  summary: string;
  /** Full help text (usage line, flags, examples). */
  help: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  allowPositionals?: boolean;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** Parses argv for a command; an unknown or malformed flag is an InputError that points at --help. */
export function parseCommandArgs(
  command: CliCommand,
  argv: string[],
): ParsedArgs & { help: boolean } {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    const { help, ...values } = parsed.values as ParsedArgs["values"];
    return { values, positionals: parsed.positionals, help: help === true };
  } catch (error) {
    throw new InputError(
      `ecdysis ${command.name}`,
      `${(error as Error).message} (see 'ecdysis ${command.name} --help')`,
    );
  }
}

/** Validates parsed flags with a zod schema; the first problem becomes an InputError naming the flag. */
export function validateFlags<T>(
  command: string,
  schema: z.ZodType<T>,
  value: unknown,
  flagNames: Record<string, string> = {},
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = issue.code === "unrecognized_keys" ? issue.keys[0] : issue.path[0];
  const name = key === undefined ? undefined : String(key);
  const field = name
    ? `--${flagNames[name] ?? name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
    : undefined;
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  const problem = missing ? `${field} is required` : issue.message;
  throw new InputError(`ecdysis ${command}`, `${problem} (see 'ecdysis ${command} --help')`, {
    field,
  });
}

/** Resolves a path flag against the working directory of the invocation. */
export function resolvePath(io: CliIo, path: string): string {
  return resolve(io.cwd, path);
}

/**
 * The `--out` folder, resolved: an InputError before any work when the path is a file (or under
 * one), rather than a bare EEXIST after every rollout has run.
 */
export async function outFolder(io: CliIo, path: string): Promise<string> {
  const folder = resolvePath(io, path);
  for (let at = folder; ; at = dirname(at)) {
    const found = await stat(at).catch(() => undefined);
    if (found && !found.isDirectory())
      throw new InputError(
        at,
        at === folder
          ? "--out names a file, not a folder: name a folder (it is created when missing)"
          : `--out ${path} lies under a file: name a folder`,
        { field: "--out" },
      );
    if (found || dirname(at) === at) return folder;
  }
}

/**
 * Resolves a `--world` value: a bare name (letters, digits, dashes) must be a bundled world and
 * stays a name; anything else is a world file, resolved against the cwd. An unknown name is an
 * InputError naming the flag and the bundled worlds (not "cannot read file <cwd>/<typo>").
 */
export function resolveWorldFlag(io: CliIo, command: string, world: string): string {
  if (!isWorldName(world)) return resolvePath(io, world);
  const problem = worldNameProblem(world);
  if (problem) throw new InputError(`ecdysis ${command}`, problem, { field: "--world" });
  return world;
}

/**
 * The config with `--concurrency` in force (rollouts in flight). Results do not depend on it,
 * so the config hash (cache and journal keys) stays the file's.
 */
export function withConcurrency(
  loaded: LoadedConfig,
  concurrency: number | undefined,
): LoadedConfig {
  if (concurrency === undefined) return loaded;
  return { ...loaded, config: { ...loaded.config, concurrency } };
}
