import { describe, expect, it } from "vitest";
import { failureNotesTemplate } from "../diagnose/prompts/failure-notes.js";
import { patternMergeTemplate } from "../diagnose/prompts/pattern-merge.js";
import { failureNotesJsonSchema, patternMergeJsonSchema } from "../diagnose/reply-schemas.js";
import { askStructured } from "../diagnose/structured-ask.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { strictSchemaViolations } from "../llm/strict-json-schema.js";
import { architectTemplate } from "./prompts/architect.js";
import { diagnosticianTemplate } from "./prompts/diagnostician.js";
import { editorTemplate } from "./prompts/editor.js";
import { skepticTemplate } from "./prompts/skeptic.js";
import { critiqueSchema, roleJsonSchemas } from "./role-schemas.js";

describe("role schemas on the wire", () => {
  const schemas = {
    ...roleJsonSchemas,
    failure_notes: failureNotesJsonSchema,
    pattern_merge: patternMergeJsonSchema,
  };

  it.each(Object.entries(schemas))("%s is inside OpenAI's strict-mode subset", (_name, schema) => {
    expect(strictSchemaViolations(schema)).toEqual([]);
    expect(JSON.stringify(schema)).not.toMatch(/"oneOf"|"\$schema"|"maxLength"|"minLength"/);
  });

  it("is not pasted into the role prompts (it travels as response_format)", () => {
    for (const template of [
      diagnosticianTemplate,
      architectTemplate,
      skepticTemplate,
      editorTemplate,
      failureNotesTemplate,
      patternMergeTemplate,
    ]) {
      expect(template).not.toContain("JSON Schema");
      expect(template).not.toContain('"properties"');
      expect(template).toContain("Reply with a single JSON object and nothing else.");
    }
  });

  it("sets no temperature of its own: the refiner's configured one applies", async () => {
    const refiner = new ScriptedProvider(() => ({
      content: '{"verdict":"accept","objections":[]}',
    }));
    await askStructured({
      provider: refiner,
      schemaName: "critique",
      purpose: "skeptic",
      instructions: skepticTemplate,
      evidence: { hms: { changes: [] } },
      jsonSchema: roleJsonSchemas.critique,
      schema: critiqueSchema,
    });
    expect(refiner.calls[0].temperature).toBeUndefined();
    expect(refiner.calls[0].jsonSchema?.name).toBe("critique");
  });
});
