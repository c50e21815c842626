import { describe, expect, it } from "vitest";
import { readSurface } from "./request-surface.js";
import type { SimRequest } from "./sim-request.js";
import { toolHistory } from "./tool-history.js";

const request = (system: string, extra: SimRequest["messages"] = []): SimRequest => ({
  model: "sim-1",
  messages: [{ role: "system", content: system }, { role: "user", content: "task" }, ...extra],
  tools: [],
  seed: 0,
  temperature: 0,
});

describe("readSurface: the phrasings a model would follow", () => {
  it.each([
    "End your reply with a final line of the form 'Answer: <value>'.",
    "Always finish with a line starting with `Answer:` followed by the value.",
    "Give your final answer on its own line as **Answer:** <value>.",
    "State the result on the last line, prefixed with 'Final answer:'.",
    "Conclude every reply with an answer line: ANSWER: <value>",
    "Put the answer on a line that begins with the word Answer.",
  ])("reads %j as an answer-format instruction", (system) => {
    expect(readSurface(request(system)).formatInstruction).toBe(true);
  });

  it.each([
    "You are a helpful assistant.",
    "Answer the user's question carefully.",
    "Keep your answers short.",
  ])("does not read %j as one", (system) => {
    expect(readSurface(request(system)).formatInstruction).toBe(false);
  });

  it.each([
    "- If a tool call fails with an error, fix the arguments and retry.",
    "When a tool returns an error, correct the call and try again.",
    "If a lookup comes back with an error, check the key and call it again.",
    "Tool calls can be rejected; read the message, adjust your input and re-issue the call.",
    "Never give up after a failed tool call: fix it and call the tool again.",
  ])("reads %j as guidance after tool errors", (system) => {
    expect(readSurface(request(system)).guidedBySystem).toBe(true);
  });

  it.each(["You are a helpful assistant. Use the tools.", "Retry nothing. Be brief."])(
    "does not read %j as guidance",
    (system) => {
      expect(readSurface(request(system)).guidedBySystem).toBe(false);
    },
  );

  it("mirrors the label the instruction names", () => {
    expect(readSurface(request("End with a line 'Final answer: <value>'.")).answerLabel).toBe(
      "Final answer:",
    );
    expect(
      readSurface(request("Finish with **Answer:** <value> on the last line.")).answerLabel,
    ).toBe("**Answer:**");
    expect(readSurface(request("End your reply with 'Answer: <value>'.")).answerLabel).toBe(
      "Answer:",
    );
  });
});

describe("toolHistory: guidance in a tool result", () => {
  const failed = (result: string): SimRequest =>
    request("You are a helpful assistant.", [
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "lookup", arguments: "{}" }],
      },
      { role: "tool", toolCallId: "c1", content: result },
    ]);

  it.each([
    "error: no entry named 'x'\n\nHint: check the key.",
    "error: no entry named 'x'\n\nTip: use the exact name of the entry and call lookup again.",
    "error: no entry named 'x'\nCheck the argument format and try again.",
    "error: no entry named 'x' (keys must be the exact name; retry with the corrected key)",
  ])("reads %j as a hinted error", (result) => {
    expect(toolHistory(failed(result))[0]).toMatchObject({ error: true, hinted: true });
  });

  it("a bare error is not a hint", () => {
    expect(toolHistory(failed("error: no entry named 'x's record'"))[0]).toMatchObject({
      error: true,
      hinted: false,
    });
    expect(toolHistory(failed("error: invalid character '×' in expression"))[0].hinted).toBe(false);
  });
});
