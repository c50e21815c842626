import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { node24, repoRoot } from "./action-runner.js";

const quickstart = join(repoRoot, "examples", "quickstart");

/** Files of the quickstart harness and tasks, relative to the quickstart folder. */
export const quickstartPaths = [
  "harness/harness.yaml",
  "harness/knowledge.md",
  "harness/rules.md",
  "harness/system.md",
  "tasks/train.jsonl",
  "tasks/heldout.jsonl",
] as const;

/**
 * The quickstart project (sim model, bundled world) laid out under `folder` of a repository:
 * `""` puts `ecdysis.yml` at the repository root, as `ecdysis init` does.
 */
export function quickstartFiles(folder = ""): Record<string, string> {
  const prefix = folder === "" ? "" : `${folder}/`;
  const files: Record<string, string> = {};
  for (const name of quickstartPaths) {
    files[`${prefix}${name}`] = readFileSync(join(quickstart, name), "utf8");
  }
  files[`${prefix}ecdysis.yml`] = readFileSync(join(quickstart, "ecdysis.yml"), "utf8");
  files[".gitignore"] = ".ecdysis/\n";
  return files;
}

/** A quickstart file as shipped (e.g. `tasks/heldout.jsonl`). */
export function quickstartFile(name: string): string {
  return readFileSync(join(quickstart, name), "utf8");
}

/** Evolve a config with the bundled CLI under Node 24; returns the run folder (`harness/` inside). */
export async function evolveWithCli(configPath: string): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "ecdysis-evolved-"));
  await new Promise<void>((resolve, reject) =>
    execFile(
      node24,
      [join(repoRoot, "dist", "cli.js"), "evolve", "--config", configPath, "--out", out],
      (error) => (error ? reject(error) : resolve()),
    ),
  );
  return out;
}
