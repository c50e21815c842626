import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { commandOutputJsonSchema, parseCommandOutput } from "./command-output.js";

const parse = (value: unknown) => parseCommandOutput(JSON.stringify(value));

describe("parseCommandOutput: lenient where harmless", () => {
  it("keeps an event kind of the agent's own as a generic agent-event", () => {
    const parsed = parse({
      output: "Answer: 4",
      trace: {
        events: [
          { kind: "retrieval-miss", step: 2, detail: "no document for 'x'" },
          { kind: "tool-error", detail: "calculator failed" },
        ],
      },
    });
    expect(parsed.ok && parsed.value.trace?.events).toEqual([
      { kind: "agent-event", step: 2, detail: "retrieval-miss: no document for 'x'" },
      { kind: "tool-error", step: 0, detail: "calculator failed" },
    ]);
  });

  it("gives a step the fields it leaves out, and keeps JSON tool arguments as text", () => {
    const parsed = parse({
      output: "done",
      trace: {
        steps: [
          { assistant: "let me compute" },
          { toolCalls: [{ name: "calculator", arguments: { expression: "2+2" }, result: 4 }] },
        ],
      },
    });
    expect(parsed.ok && parsed.value.trace?.steps).toEqual([
      {
        assistant: "let me compute",
        toolCalls: [],
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: 0,
      },
      {
        assistant: null,
        toolCalls: [
          { name: "calculator", arguments: '{"expression":"2+2"}', result: "4", error: false },
        ],
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: 0,
      },
    ]);
  });

  it("takes a numeric answer as its text", () => {
    const parsed = parse({ output: "It is 42.", answer: 42 });
    expect(parsed.ok && parsed.value.answer).toBe("42");
    const decimal = parse({ output: "x", answer: 0.5 });
    expect(decimal.ok && decimal.value.answer).toBe("0.5");
  });

  it("ignores keys it does not know", () => {
    const parsed = parse({ output: "x", debug: { anything: true } });
    expect(parsed.ok).toBe(true);
  });
});

describe("parseCommandOutput: strict where it matters", () => {
  it("refuses an output that is missing or not text, and an answer that is neither text nor number", () => {
    for (const value of [{ answer: "4" }, { output: 4 }, { output: "x", answer: true }, [1]]) {
      const parsed = parse(value);
      expect(parsed.ok, JSON.stringify(value)).toBe(false);
    }
    const missing = parse({ answer: "4" });
    expect(!missing.ok && missing.reason).toBe(
      "stdout JSON field 'output' is required (expected string) (see schemas/command-output.schema.json)",
    );
    const boolean = parse({ output: "x", answer: true });
    expect(!boolean.ok && boolean.reason).toMatch(
      /^stdout JSON field 'answer': expected text or a number/,
    );
  });

  it("names the nested field that is wrong", () => {
    const nameless = parse({
      output: "x",
      trace: { steps: [{ toolCalls: [{ arguments: "1" }] }] },
    });
    expect(!nameless.ok && nameless.reason).toMatch(
      /^stdout JSON field 'trace\.steps\.0\.toolCalls\.0\.name' is required \(expected string\)/,
    );
    const negative = parse({ output: "x", trace: { usage: { promptTokens: -1 } } });
    expect(!negative.ok && negative.reason).toMatch(
      /^stdout JSON field 'trace\.usage\.promptTokens': Too small/,
    );
    const array = parse([1]);
    expect(!array.ok && array.reason).toMatch(/^stdout JSON: expected object, received array/);
  });

  it("refuses stdout that is not one JSON object", () => {
    const parsed = parseCommandOutput('log line\n{"output": "x"}');
    expect(!parsed.ok && parsed.reason).toMatch(/not one JSON object: log line/);
  });
});

describe("schemas/command-output.schema.json", () => {
  it("is the zod schema's (regenerate with 'ecdysis schema --out schemas')", async () => {
    const root = join(fileURLToPath(import.meta.url), "..", "..", "..");
    const committed = await readFile(join(root, "schemas", "command-output.schema.json"), "utf8");
    expect(committed).toBe(`${JSON.stringify(commandOutputJsonSchema(), null, 2)}\n`);
  });

  it("accepts what the parser accepts and refuses a missing output", () => {
    const validate = new Ajv2020({ strict: false }).compile(commandOutputJsonSchema());
    const output = {
      output: "Answer: 4",
      answer: 4,
      trace: {
        steps: [{ assistant: "ok", toolCalls: [{ name: "calculator", arguments: "2+2" }] }],
        events: [{ kind: "my-own-kind" }],
        usage: { promptTokens: 120, completionTokens: 30, llmCalls: 2 },
      },
    };
    expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
    expect(parse(output).ok).toBe(true);
    expect(validate({ answer: "4" })).toBe(false);
  });
});
