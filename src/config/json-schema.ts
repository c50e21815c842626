import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ecdysisConfigSchema } from "./config-schema.js";
import { harnessConfigSchema } from "./harness-schema.js";

/** JSON Schemas for editors, keyed by the file name they are written under. */
export function jsonSchemas(): Record<string, Record<string, unknown>> {
  const render = (schema: z.ZodType, id: string, title: string) => ({
    $id: id,
    title,
    ...(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>),
  });
  return {
    "ecdysis.schema.json": render(ecdysisConfigSchema, "ecdysis.schema.json", "ecdysis.yml"),
    "harness.schema.json": render(harnessConfigSchema, "harness.schema.json", "harness.yaml"),
  };
}

/**
 * Writes JSON Schemas into `outDir` (each atomically), by default `ecdysis.schema.json` and
 * `harness.schema.json`; the CLI adds the later stages' (the command-harness protocol). Returns
 * the paths.
 */
export async function writeJsonSchemas(
  outDir: string,
  schemas: Record<string, Record<string, unknown>> = jsonSchemas(),
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const target = join(outDir, name);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(schema, null, 2)}\n`);
    await rename(temporary, target);
    written.push(target);
  }
  return written;
}
