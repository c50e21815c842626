import { describe, expect, it } from "vitest";
import { inMemoryHarness } from "./testing/in-memory-harness.js";
import { enabledTools, runTool } from "./tools.js";

const yaml = `tools:
  lookup:
    enabled: true
    files: [knowledge.md]
`;

function registry(entries: number): string {
  const blocks = Array.from(
    { length: entries },
    (_, index) => `## Person ${index}\n- born: ${1800 + index}`,
  );
  return `# Registry\n\n${blocks.join("\n\n")}\n`;
}

describe("runTool: lookup", () => {
  it("indexes a harness's knowledge files once, not on every call", () => {
    const harness = inMemoryHarness(yaml, { "knowledge.md": registry(500) });
    let reads = 0;
    const files = harness.files;
    // Count every read of the knowledge file's text by the tool.
    harness.files = new Proxy(files, {
      get(target, property, receiver) {
        if (property === "knowledge.md") reads += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    const offered = enabledTools(harness.config ?? ({} as never));
    const call = (key: string) =>
      runTool({ name: "lookup", arguments: JSON.stringify({ key }), harness, offered });
    expect(call("person 7")).toEqual({
      text: "## Person 7\n- born: 1807",
      error: false,
      invalidCall: false,
    });
    for (let index = 0; index < 50; index++) call(`Person ${index}`);
    expect(call("Nobody").text).toBe("error: no entry named 'Nobody'");
    expect(reads).toBe(1);
  });

  it("keeps each harness's own knowledge (a candidate with an edited file sees its edit)", () => {
    const seed = inMemoryHarness(yaml, { "knowledge.md": "## Ada\n- born: 1815\n" });
    const edited = inMemoryHarness(yaml, { "knowledge.md": "## Ada\n- born: 1816\n" });
    const offered = enabledTools(seed.config ?? ({} as never));
    const lookup = (harness: typeof seed) =>
      runTool({ name: "lookup", arguments: '{"key":"Ada"}', harness, offered }).text;
    expect(lookup(seed)).toBe("## Ada\n- born: 1815");
    expect(lookup(edited)).toBe("## Ada\n- born: 1816");
    expect(lookup(seed)).toBe("## Ada\n- born: 1815");
  });
});
