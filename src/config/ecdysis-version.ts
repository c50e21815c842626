import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The root of the Ecdysis package (the folder of its package.json), found by walking up from
 * this module: the checkout when run from src/, the installed package when run from dist/.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const file = join(dir, "package.json");
    if (existsSync(file) && readName(file) === "ecdysis") return dir;
    dir = dirname(dir);
  }
  throw new Error("ecdysis: package.json of the ecdysis package not found");
}

function readName(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

let cached: string | undefined;

/** The version of this Ecdysis (package.json `version`). */
export function ecdysisVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }
  ).version;
  return cached;
}
