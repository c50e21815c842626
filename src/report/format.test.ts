import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import { compareGate } from "../evolve/gate-result.js";
import type { EvolveResult } from "../evolve/result-schema.js";
import { codeSpan } from "./format.js";
import { renderGateComment } from "./gate-comment.js";
import { patternsSection } from "./markdown-sections.js";

const markdown = new MarkdownIt("commonmark").enable("table");

/** Every inline token of a rendered document (text, code spans, HTML). */
function inlineTokens(text: string): ReturnType<typeof markdown.parse> {
  return markdown
    .parse(text, {})
    .filter((token) => token.type === "inline")
    .flatMap((token) => token.children ?? []);
}

/** Text GitHub would scan for mentions: everything outside code spans. */
function plainText(text: string): string {
  return inlineTokens(text)
    .filter((token) => token.type === "text")
    .map((token) => token.content)
    .join(" ");
}

describe("codeSpan", () => {
  it("keeps backticks, pipes and mentions inside one code span of a table cell", () => {
    for (const id of ["a`b", "``x``", "`edge`", "@org/team", "a|b", "<b>x</b>"]) {
      const table = `| id | n |\n|---|---|\n| ${codeSpan(id)} | 1 |\n`;
      const code = inlineTokens(table).filter((token) => token.type === "code_inline");
      expect(
        code.map((token) => token.content),
        id,
      ).toEqual([id]);
      expect(plainText(table), id).toBe("id n 1");
    }
  });
});

function evalOf(ids: string[], pass: boolean[]): { result: EvalResult; records: RolloutRecord[] } {
  const records = ids.map(
    (taskId, index) =>
      ({
        taskId,
        verdict: { pass: pass[index], score: pass[index] ? 1 : 0, reason: "wrong-answer" },
        trace: {
          events: [],
          usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
        },
      }) as unknown as RolloutRecord,
  );
  const result = {
    harnessHash: "h",
    split: "heldout",
    accuracy: pass.filter(Boolean).length / pass.length,
    interval: [0, 1],
    n: ids.length,
    tasks: ids.map((taskId, index) => ({
      taskId,
      category: "c",
      pass: pass[index],
      passes: pass[index] ? 1 : 0,
      samples: 1,
      rolloutKeys: [],
    })),
    cost: {
      rollouts: 0,
      cachedRollouts: 0,
      llmCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      wallMs: 0,
    },
  } as unknown as EvalResult;
  return { result, records };
}

describe("gate comment with hostile task ids", () => {
  it("a flipped task id '@org/team' or one with backticks stays inside its code span", () => {
    const ids = ["@org/team", "x`y` @octocat", "plain"];
    const gate = compareGate({
      base: evalOf(ids, [false, false, true]),
      head: evalOf(ids, [true, true, true]),
      gate: {
        tolerance: 0,
        alpha: 0.05,
        requireImprovement: false,
        statusContext: "ecdysis/heldout",
      },
    });
    const comment = renderGateComment(gate);
    expect(plainText(comment)).not.toMatch(/@org|@octocat/);
    const code = inlineTokens(comment)
      .filter((token) => token.type === "code_inline")
      .map((token) => token.content);
    expect(code).toContain("@org/team");
    expect(code).toContain("x`y` @octocat");
  });
});

describe("PR body with hostile task ids", () => {
  it("an example task id with backticks does not break out of its code span", () => {
    const pattern = {
      name: "answer format drift",
      kind: "systematic",
      description: "",
      support: { tasks: 3, categories: 2, categoryNames: ["a", "b"] },
      examples: [{ taskId: "q`**bold** @org/team`" }, { taskId: "plain-1" }],
      reasons: [{ code: "supported", detail: "recurs" }],
    };
    const result = {
      iterations: [{ index: 1, diagnosis: { patterns: [pattern] } }],
    } as unknown as EvolveResult;
    const section = patternsSection(result);
    const code = inlineTokens(section)
      .filter((token) => token.type === "code_inline")
      .map((token) => token.content);
    expect(code).toEqual(["q`**bold** @org/team`", "plain-1"]);
    expect(plainText(section)).not.toMatch(/@org|bold/);
    expect(inlineTokens(section).some((token) => token.type === "strong_open")).toBe(false);
  });
});
