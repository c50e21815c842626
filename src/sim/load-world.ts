import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isMap, LineCounter, parseDocument } from "yaml";
import { InputError } from "../errors/input-error.js";
import { type World, worldSchema } from "./world-schema.js";

/** The bundled `worlds/` folder, found by walking up from this module (works from src/ and dist/). */
export function worldsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, "worlds");
    if (existsSync(join(candidate, "quickstart.yaml"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("sim: bundled worlds folder not found");
}

const bundled = ["quickstart", "systematic", "noisy", "sparse", "neutral", "plainspoken"];

/** Names of the bundled worlds (pass one to loadWorld). */
export function bundledWorlds(): string[] {
  return [...bundled];
}

/** Lists the world files actually present in the bundled folder. */
export async function listWorldFiles(): Promise<string[]> {
  return (await readdir(worldsDir())).filter((file) => /\.(ya?ml|json)$/.test(file)).sort();
}

/** Parses and validates world text; errors name the file, line and field. */
export function parseWorld(file: string, text: string): World {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    throw new InputError(file, `invalid YAML/JSON: ${syntax.message.split("\n")[0]}`, {
      line: lineCounter.linePos(syntax.pos[0]).line,
    });
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw new InputError(
      file,
      'too many YAML aliases (a "billion laughs" file?); write the values out instead',
    );
  }
  const parsed = worldSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys" && issue.keys.length > 0) path.push(issue.keys[0]);
    let line: number | undefined;
    for (let length = path.length; length > 0 && line === undefined; length--) {
      const node = document.getIn(
        path.slice(0, length).map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        true,
      ) as { range?: [number, number, number] } | undefined;
      if (node?.range) line = lineCounter.linePos(node.range[0]).line;
    }
    if (line === undefined && isMap(document.contents) && document.contents.range) line = 1;
    throw new InputError(file, issue.message, { line, field: path.join(".") || undefined });
  }
  const world = parsed.data;
  world.families.forEach((family, index) => {
    if (family.hops.min > family.hops.max) {
      throw new InputError(file, "hops.min must not exceed hops.max", {
        field: `families.${index}.hops`,
      });
    }
  });
  return world;
}

/** Loads a world by bundled name ("quickstart") or file path (YAML or JSON). */
export async function loadWorld(path: string): Promise<World> {
  const file = bundled.includes(path) ? join(worldsDir(), `${path}.yaml`) : resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const known = bundled.join(", ");
    throw new InputError(
      file,
      `cannot read world file (${(error as NodeJS.ErrnoException).code}); bundled worlds: ${known}`,
    );
  }
  return parseWorld(file, text);
}
