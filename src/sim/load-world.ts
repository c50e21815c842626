import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { bundledWorldNames, isBundledWorld, worldsDir } from "../config/world-names.js";
import { parseLocatedYaml, validateLocated } from "../config/yaml-document.js";
import { InputError } from "../errors/input-error.js";
import { type World, worldSchema } from "./world-schema.js";

/** Names of the bundled worlds (pass one to loadWorld). */
export function bundledWorlds(): string[] {
  return [...bundledWorldNames];
}

/** Lists the world files actually present in the bundled folder. */
export async function listWorldFiles(): Promise<string[]> {
  return (await readdir(worldsDir())).filter((file) => /\.(ya?ml|json)$/.test(file)).sort();
}

/** Parses and validates world text (YAML or JSON); errors name the file, line and field. */
export function parseWorld(file: string, text: string): World {
  const world = validateLocated({
    file,
    located: parseLocatedYaml(file, text),
    schema: worldSchema,
  });
  world.families.forEach((family, index) => {
    if (family.hops.min > family.hops.max) {
      throw new InputError(file, "hops.min must not exceed hops.max", {
        field: `families[${index}].hops`,
      });
    }
  });
  return world;
}

/** Loads a world by bundled name ("quickstart") or file path (YAML or JSON). */
export async function loadWorld(path: string): Promise<World> {
  const file = isBundledWorld(path) ? join(worldsDir(), `${path}.yaml`) : resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const known = bundledWorldNames.join(", ");
    throw new InputError(
      file,
      `cannot read world file (${(error as NodeJS.ErrnoException).code}); bundled worlds: ${known}`,
    );
  }
  return parseWorld(file, text);
}
