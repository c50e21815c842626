import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot, runCli } from "../../src/cli/testing/run-cli.js";

let template: Promise<string> | undefined;

/**
 * A fresh copy of the project `ecdysis init . --world <world>` writes (config, task files, seed
 * harness), in its own temporary folder; the template is made once per test file.
 */
export async function initProject(world = "quickstart"): Promise<string> {
  template ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-reliability-template-"));
    const init = await runCli(["init", ".", "--world", world], { cwd: dir });
    if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
    return dir;
  })();
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-reliability-"));
  await cp(await template, dir, { recursive: true });
  return dir;
}

/** Rewrites every line of a JSONL task file with `change`. */
export async function editTasks(
  file: string,
  change: (task: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "");
  await writeFile(
    file,
    `${lines.map((line) => JSON.stringify(change(JSON.parse(line)))).join("\n")}\n`,
  );
}

/**
 * A fresh copy of examples/quickstart (its caches left out): a run that accepts edits over
 * several iterations, with background stages.
 */
export async function quickstartProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-reliability-quickstart-"));
  await cp(join(repoRoot, "examples", "quickstart"), dir, {
    recursive: true,
    filter: (source) => !source.split(/[\\/]/).includes(".ecdysis"),
  });
  return dir;
}

/**
 * A result as two runs of the same inputs must agree on it: everything but clock readings
 * (start and finish times, wall times, latencies).
 */
export function comparable(result: unknown): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value) => (/(Ms|At)$/.test(key) ? undefined : (value as unknown))),
  );
}

/** Polls `condition` until it holds (the test's own timeout bounds the wait). */
export async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}
