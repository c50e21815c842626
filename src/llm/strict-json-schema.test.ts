import { describe, expect, it } from "vitest";
import { z } from "zod";
import { strictJsonSchema, strictSchemaViolations } from "./strict-json-schema.js";

describe("strictJsonSchema", () => {
  it("turns a zod schema into OpenAI's strict subset", () => {
    const schema = strictJsonSchema(
      z.object({
        name: z.string().min(1).max(40),
        score: z.number().min(0).max(1),
        tags: z.array(z.string()).min(1),
        note: z.string().optional(),
        value: z.union([z.string(), z.number()]),
        edit: z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("a"), text: z.string() }),
          z.object({ kind: z.literal("b"), n: z.number() }),
        ]),
      }),
    );
    expect(strictSchemaViolations(schema)).toEqual([]);
    expect(schema).not.toHaveProperty("$schema");
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.name).toEqual({ type: "string" });
    expect(properties.score).toEqual({ type: "number" });
    expect(properties.note).toEqual({ type: ["string", "null"] });
    expect(schema.required).toEqual(["name", "score", "tags", "note", "value", "edit"]);
    expect(properties.edit).toHaveProperty("anyOf");
    expect(JSON.stringify(schema)).not.toContain("oneOf");
  });

  it("names what leaves the subset", () => {
    const problems = strictSchemaViolations({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { a: { type: "string", maxLength: 3 }, b: { oneOf: [{ type: "string" }] } },
      required: ["a"],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "(root): $schema is not allowed",
        "(root): additionalProperties must be false",
        "(root).b: every property must be required",
        "(root).a: 'maxLength' is not supported in strict mode",
        "(root).b: 'oneOf' is not supported in strict mode",
      ]),
    );
  });
});
