import { readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { InputError } from "../errors/input-error.js";
import { type EvolveResult, parseEvolveResult } from "../evolve/result-schema.js";
import { compareRuns, formatComparison } from "../report/run-comparison.js";
import { type CliCommand, resolvePath } from "./command.js";

/** Reads a run's result.json (a file, or a folder holding one), refusing anything else by file and field. */
async function readResult(path: string): Promise<{ file: string; result: EvolveResult }> {
  const isDir = await stat(path).then(
    (info) => info.isDirectory(),
    () => {
      throw new InputError(
        path,
        "no such file or folder: give an evolve --out folder or its result.json",
      );
    },
  );
  const file = isDir ? join(path, "result.json") : path;
  const text = await readFile(file, "utf8").catch(() => {
    throw new InputError(
      file,
      "not found: give the --out folder of an 'ecdysis evolve' run, or its result.json",
    );
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, `is not JSON (${(error as Error).message})`);
  }
  // The one contract with the conductor: result.json's versioned schema.
  return { file, result: parseEvolveResult(file, value) };
}

/** `ecdysis compare`: two evolve runs side by side (accuracies with intervals, cost, changes). */
export const compareCommand: CliCommand = {
  name: "compare",
  summary: "compare two evolve runs (accuracies with intervals, gate, cost, accepted changes)",
  help: `Usage: ecdysis compare RUN_A RUN_B

Reads the result.json of two 'ecdysis evolve' runs (their --out folders, or the files) and
prints them side by side: seed and final accuracy with 95% intervals on train and held-out and
the difference B − A, the held-out gate with its p-value, accepted edits, why each run stopped,
cost split agent/refiner, calls, tokens, rollouts and wall time; then the accepted changes both
runs made and those only one did. Notes say when the runs are not comparable (other task sets,
config or seed harness) or when the held-out difference lies within overlapping intervals.

Example: ecdysis compare .ecdysis/run-ecdysis .ecdysis/run-iterative
`,
  options: {},
  allowPositionals: true,
  async run(args, io) {
    if (args.positionals.length !== 2)
      throw new InputError(
        "ecdysis compare",
        "give exactly two runs: RUN_A RUN_B (see 'ecdysis compare --help')",
      );
    const [a, b] = await Promise.all(
      args.positionals.map((path) => readResult(resolvePath(io, path))),
    );
    const name = (file: string) => relative(io.cwd, file) || file;
    io.stdout.write(
      formatComparison(compareRuns(a.result, b.result), { a: name(a.file), b: name(b.file) }),
    );
    return 0;
  },
};
