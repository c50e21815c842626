import { ecdysisVersion } from "../config/ecdysis-version.js";
import { EcdysisError } from "../errors/ecdysis-error.js";
import { InterruptedError, untilAborted } from "../errors/interrupted-error.js";
import { escapeInvisible } from "../safety/guard-text.js";
import { benchCommand } from "./bench-command.js";
import { type CliCommand, type CliIo, parseCommandArgs } from "./command.js";
import { compareCommand } from "./compare-command.js";
import { evalCommand } from "./eval-command.js";
import { evolveCommand } from "./evolve-command.js";
import { gateCommand } from "./gate-command.js";
import { initCommand } from "./init-command.js";
import { mergeCommand } from "./merge-command.js";
import { schemaCommand } from "./schema-command.js";
import { simCommand } from "./sim-command.js";

/** Every command, in the order `ecdysis --help` lists them. */
export const commands: CliCommand[] = [
  initCommand,
  evalCommand,
  mergeCommand,
  evolveCommand,
  compareCommand,
  gateCommand,
  benchCommand,
  simCommand,
  schemaCommand,
];

/** Top-level help. */
function generalHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  const list = commands
    .map((command) => `  ${command.name.padEnd(width)}${command.summary}`)
    .join("\n");
  return `Usage: ecdysis <command> [flags]    (ecdysis <command> --help for its flags)

Ecdysis trains the runtime harness of an LLM agent from failures diagnosed across many tasks.

Commands:
${list}

Global flags: --debug (print stack traces of unexpected errors), --help, --version
`;
}

/**
 * Runs the CLI: dispatches to a command, maps an EcdysisError to its exit code with a one-line
 * message, and any other error to exit 1 (with its stack only under --debug).
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const debug = argv.includes("--debug");
  const args = argv.filter((arg) => arg !== "--debug");
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(generalHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout.write(`ecdysis ${ecdysisVersion()}\n`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(
      `error: unknown command '${name}' (commands: ${commands.map((each) => each.name).join(", ")})\n`,
    );
    return 2;
  }
  try {
    const parsed = parseCommandArgs(command, rest);
    if (parsed.help) {
      io.stdout.write(command.help);
      return 0;
    }
    const running = command.run(parsed, io);
    return await (stopsAtOnce.has(command.name) ? untilAborted(running, io.signal) : running);
  } catch (error) {
    if (error instanceof EcdysisError) {
      io.stderr.write(`error: ${escapeInvisible(error.message.replace(/\s*\n\s*/g, " "))}\n`);
      if (debug && error.stack) io.stderr.write(`${error.stack}\n`);
      return error.exitCode;
    }
    if (io.signal.aborted) {
      const stop =
        io.signal.reason instanceof InterruptedError
          ? io.signal.reason
          : new InterruptedError("SIGINT");
      io.stderr.write(`${stop.message}\n`);
      return stop.exitCode;
    }
    const message = escapeInvisible(error instanceof Error ? error.message : String(error));
    io.stderr.write(
      `unexpected error: ${message}${debug ? "" : " (run with --debug for details)"}\n`,
    );
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

/**
 * Commands without their own interrupt handling: an interrupt ends them at once (`untilAborted`:
 * their finished stages are journaled and their rollouts and calls cached).
 */
const stopsAtOnce = new Set(["evolve", "gate", "bench"]);
