import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { jsonSchemas, writeJsonSchemas } from "./json-schema.js";

describe("writeJsonSchemas", () => {
  it("writes schemas that accept a valid config and reject an unknown key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-schema-"));
    const written = await writeJsonSchemas(dir);
    expect(written.map((file) => file.slice(dir.length + 1))).toEqual([
      "ecdysis.schema.json",
      "harness.schema.json",
    ]);
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const config = JSON.parse(await readFile(join(dir, "ecdysis.schema.json"), "utf8"));
    const validateConfig = ajv.compile(config);
    const minimal = {
      model: { provider: "sim", model: "sim-1", world: "quickstart" },
      harness: {},
      tasks: { train: "t.jsonl", heldout: "h.jsonl" },
    };
    expect(validateConfig(minimal), JSON.stringify(validateConfig.errors)).toBe(true);
    expect(validateConfig({ ...minimal, concurency: 3 })).toBe(false);
    const harness = JSON.parse(await readFile(join(dir, "harness.schema.json"), "utf8"));
    const validateHarness = ajv.compile(harness);
    expect(
      validateHarness({ agent_loop: { max_steps: 6 }, tools: { calculator: { enabled: true } } }),
    ).toBe(true);
    expect(validateHarness({ agent_loop: { max_steps: 0 } })).toBe(false);
  });
});

describe("committed schemas/", () => {
  it("match the zod schemas (regenerate with 'ecdysis schema --out schemas')", async () => {
    const root = join(fileURLToPath(import.meta.url), "..", "..", "..");
    for (const [name, schema] of Object.entries(jsonSchemas())) {
      const committed = await readFile(join(root, "schemas", name), "utf8");
      expect(committed).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    }
  });
});
