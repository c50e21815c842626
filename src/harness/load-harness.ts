import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { parseHarnessYaml } from "../config/harness-yaml.js";
import { InputError } from "../errors/input-error.js";
import { missingReference } from "./harness-references.js";
import { harnessHash } from "./hash.js";
import type { LoadedHarness } from "./types.js";

/**
 * Largest file a harness folder may hold: room for a data file such as a lookup registry of many
 * thousand entries. What an edit may write is bounded separately (the content guards' 64 KB),
 * and the roles see files within their character budgets.
 */
export const maxHarnessFileBytes = 16 * 1024 * 1024;
/** Most files a harness folder may hold. */
export const maxHarnessFiles = 200;
/** Folders never read into a harness (version control and derived caches). */
const skippedFolders = new Set([".git", "node_modules", "__pycache__"]);

/**
 * Reads a harness folder into memory: every regular text file (symlinks are not followed),
 * the validated `harness.yaml` for built-in harnesses, and the content hash. Throws InputError
 * naming the file (and line/field for harness.yaml) on anything it cannot accept.
 */
export async function loadHarness(options: {
  dir: string;
  kind: "builtin" | "command";
  command?: string[];
}): Promise<LoadedHarness> {
  const dir = resolve(options.dir);
  const stats = await stat(dir).catch(() => undefined);
  if (!stats?.isDirectory())
    throw new InputError(dir, "harness folder does not exist or is not a folder");
  if (options.kind === "command" && (!options.command || options.command.length === 0)) {
    throw new InputError(dir, "a command harness needs a non-empty command argv", {
      field: "harness.command",
    });
  }
  const files = await readHarnessFiles(dir);
  if (options.kind === "command") {
    const command = [...(options.command ?? [])];
    return {
      kind: "command",
      dir,
      files,
      command,
      hash: harnessHash({ kind: "command", files, command }),
    };
  }
  const yamlPath = join(dir, "harness.yaml");
  const yamlText = files["harness.yaml"];
  if (yamlText === undefined)
    throw new InputError(yamlPath, "a built-in harness needs a harness.yaml file");
  const config = parseHarnessYaml(yamlPath, yamlText);
  const missing = missingReference(config, files);
  if (missing) throw new InputError(yamlPath, missing.problem, { field: missing.field });
  return { kind: "builtin", dir, files, config, hash: harnessHash({ kind: "builtin", files }) };
}

async function readHarnessFiles(dir: string): Promise<Record<string, string>> {
  const paths: string[] = [];
  await collect(dir, dir, paths);
  paths.sort();
  const files: Record<string, string> = {};
  for (const path of paths) {
    const absolute = join(dir, path);
    const buffer = await readFile(absolute);
    if (buffer.byteLength > maxHarnessFileBytes) {
      throw new InputError(
        absolute,
        `file is ${buffer.byteLength} bytes; harness files may be at most ${maxHarnessFileBytes} bytes`,
      );
    }
    files[path] = decodeText(absolute, buffer);
  }
  return files;
}

async function collect(root: string, folder: string, paths: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  for (const entry of entries) {
    const absolute = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) await collect(root, absolute, paths);
    } else if (entry.isFile()) {
      paths.push(relative(root, absolute).split(sep).join("/"));
      if (paths.length > maxHarnessFiles) {
        throw new InputError(
          root,
          `harness folder holds more than ${maxHarnessFiles} files; keep only the harness in it`,
        );
      }
    }
  }
}

function decodeText(file: string, buffer: Buffer): string {
  if (buffer.subarray(0, 8192).includes(0))
    throw new InputError(file, "binary file in the harness folder; harness files must be text");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    throw new InputError(file, "file is not valid UTF-8; harness files must be text");
  }
}
