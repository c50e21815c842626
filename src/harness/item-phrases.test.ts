import { describe, expect, it } from "vitest";
import type { Task } from "../config/task-schema.js";
import { labelKey } from "./answer-index.js";
import { singleTaskPhrases, tasksNaming } from "./item-phrases.js";

const task = (id: string, input: string): Task => ({ id, input, expected: "x", category: "c" });

describe("singleTaskPhrases", () => {
  it("finds the names only one train input carries", () => {
    const train = [
      task("a", "Which letter did Rinmark Faolla sign in Port Varnaby?"),
      task("b", "Port Varnaby lies on which coast?"),
      task("c", "Is Vantor a city? Convert 3 km to miles."),
    ];
    // 'Port Varnaby' is in two inputs; 'Is Vantor' and 'Convert 3' start a sentence.
    expect(singleTaskPhrases(train, new Set())).toEqual(["Rinmark Faolla"]);
  });

  it("keeps a name that opens the input, and leaves out phrases that are answers", () => {
    const train = [task("a", "Rinmark Faolla signed which letter?"), task("b", "Harbour Street?")];
    expect(singleTaskPhrases(train, new Set())).toEqual(["Rinmark Faolla", "Harbour Street"]);
    // The skip set holds answers' normal-form keys: `Harbour-Street` is that answer too.
    expect(singleTaskPhrases(train, new Set([labelKey("Harbour-Street")]))).toEqual([
      "Rinmark Faolla",
    ]);
  });

  it("reads the inputs as the guards do (look-alike letters folded)", () => {
    const train = [task("a", "Who is Rinm\u0430rk Faolla?")];
    expect(singleTaskPhrases(train, new Set())).toEqual(["Rinmark Faolla"]);
  });
});

describe("tasksNaming", () => {
  it("finds the tasks whose input carries a phrase, read as the guards read text", () => {
    const tasks = [
      task("a", "Which letter did RINMARK  faolla sign?"),
      task("b", "Who is Rinm\u0430rk Faolla?"),
      task("c", "Port Varnaby lies on which coast?"),
      task("d", "Rinmark wrote to Faolla."),
    ];
    expect(tasksNaming(["Rinmark Faolla"], tasks)).toEqual(["a", "b"]);
    expect(tasksNaming([], tasks)).toEqual([]);
  });
});
