import { appendFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ecdysisConfigSchema, type LoadedConfig } from "../../src/config/config-schema.js";
import type { ScorerSpec, Task } from "../../src/config/task-schema.js";
import { buildGuardContext } from "../../src/evolve/index.js";
import { runEvolve } from "../../src/evolve/run-evolve.js";
import { ecdysisStrategy } from "../../src/evolve/strategies/ecdysis.js";
import { fakeStages, ruleEdit } from "../../src/evolve/testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../../src/evolve/testing/fake-world.js";
import { applyEdits } from "../../src/harness/apply-edits.js";
import { assertHarnessSealed } from "../../src/harness/final-harness-guard.js";
import { loadHarness } from "../../src/harness/load-harness.js";
import { fixtureFiles, makeHarnessDir } from "../../src/harness/testing/harness-fixture.js";
import type { LoadedHarness } from "../../src/harness/types.js";
import { renderPrBody } from "../../src/report/pr-body.js";
import { renderHtml } from "../../src/report/render-html.js";
import { renderMarkdown } from "../../src/report/render-markdown.js";

// Issue #15 item 6: the leak guard tells a leaked answer from a label word. An expected answer
// that is the answer of many train tasks, a choice of a configured `choice` scorer, or a word of
// the train inputs (of a task that does not expect it) is flagged for the reviewer, not refused;
// a distinctive answer — and a held-out answer the refinement could not have seen — stays refused.

let harness: LoadedHarness;

beforeAll(async () => {
  harness = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
});

function task(id: string, input: string, expected: string, scorer?: ScorerSpec): Task {
  return { id, input, expected, category: "default", ...(scorer ? { scorer } : {}) };
}

function loaded(scorer?: ScorerSpec): LoadedConfig {
  const config = ecdysisConfigSchema.parse({
    model: { provider: "sim", world: "quickstart", model: "sim-agent" },
    harness: { dir: "harness", editable: ["rules.md", "system.md"] },
    tasks: {
      train: "tasks/train.jsonl",
      heldout: "tasks/heldout.jsonl",
      ...(scorer && { scorer }),
    },
  });
  return { config, path: "/project/ecdysis.yml", root: "/project", hash: "h" };
}

/** A yes/no world: primality questions whose answers are the labels, plus distinctive ones. */
const numbers = [91, 97, 121, 131, 143, 151, 169, 173, 187, 191];
const isPrime = (n: number) => ![91, 121, 143, 169, 187].includes(n);
const yesNoTrain = numbers
  .slice(0, 6)
  .map((n) => task(`t${n}`, `Is ${n} a prime number?`, isPrime(n) ? "yes" : "no"));
const yesNoHeldout = [
  ...numbers.slice(6).map((n) => task(`h${n}`, `Is ${n} prime?`, isPrime(n) ? "yes" : "no")),
  task("h-port", "Which harbour did the Zelalis fleet sail from?", "Port Varnaby"),
];

function addRule(text: string, guard: ReturnType<typeof buildGuardContext>) {
  return applyEdits({
    harness,
    edits: [
      { module: "prompt", patterns: ["p1"], rationale: "r", edit: { kind: "add_rule", text } },
    ],
    guard,
  });
}

describe("label words are flagged, not refused", () => {
  it("accepts 'Answer with yes or no' on a world whose answers include yes/no, and flags it", () => {
    const guard = buildGuardContext({ loaded: loaded(), train: yesNoTrain, heldout: yesNoHeldout });
    const result = addRule("Answer with yes or no.", guard);
    expect(result.rejected).toEqual([]);
    expect(result.applied).toHaveLength(1);
    expect(result.harness.files["rules.md"]).toContain("Answer with yes or no.");
    expect(result.flagged).toHaveLength(1);
    expect(result.flagged[0].file).toBe("rules.md");
    expect(result.flagged[0].edit.edit).toEqual({
      kind: "add_rule",
      text: "Answer with yes or no.",
    });
    expect(result.flagged[0].words.map((word) => word.text)).toEqual(["yes"]);
    expect(result.flagged[0].words[0].why).toBe("common-answer");
    // The final-harness seal agrees: a label word is no leak.
    expect(() =>
      assertHarnessSealed({ seed: harness, final: result.harness, guard }),
    ).not.toThrow();
  });

  it("refuses a rule that carries a distinctive held-out answer", () => {
    const guard = buildGuardContext({ loaded: loaded(), train: yesNoTrain, heldout: yesNoHeldout });
    const result = addRule("If asked about the Zelalis fleet, answer Port Varnaby.", guard);
    expect(result.applied).toEqual([]);
    expect(result.flagged).toEqual([]);
    expect(result.rejected.map((rejection) => rejection.guard)).toEqual(["leak"]);
    // The reason never quotes the answer: rejections reach later refiner calls.
    expect(result.rejected[0].reason).not.toMatch(/varnaby/i);
  });

  it("flags a rule naming a name only one train input carries (a hint for that task)", () => {
    const train = [
      ...yesNoTrain,
      task("t-letter", "Which letter did Rinmark Faolla sign first?", "the third"),
    ];
    const guard = buildGuardContext({ loaded: loaded(), train, heldout: yesNoHeldout });
    const result = addRule(
      "When a question mentions Rinmark Faolla, re-read every detail of it before answering.",
      guard,
    );
    expect(result.rejected).toEqual([]);
    expect(result.flagged[0]?.words).toEqual([{ text: "Rinmark Faolla", why: "one-task" }]);
    // A name the held-out split alone carries is never read: no flag, no hint of it.
    const heldoutOnly = addRule("Mind the Zelalis fleet.", guard);
    expect(heldoutOnly.flagged).toEqual([]);
  });

  it("refuses a distinctive train answer, even one its own input contains", () => {
    const train = [
      ...yesNoTrain,
      task("t-name", "Extract the surname: 'Mara Quillfeather rode home.'", "Quillfeather"),
    ];
    const guard = buildGuardContext({ loaded: loaded(), train, heldout: yesNoHeldout });
    const result = addRule("Surnames like Quillfeather come last.", guard);
    expect(result.rejected.map((rejection) => rejection.guard)).toEqual(["leak"]);
  });

  it("flags the choices of the configured choice scorer, even as held-out answers", () => {
    const scorer: ScorerSpec = { kind: "choice", choices: ["positive", "negative", "neutral"] };
    const train = [
      task("t1", "Review: 'Loved it.'", "positive"),
      task("t2", "Review: 'Meh.'", "neutral"),
    ];
    // 'negative' is the answer of held-out tasks only, but a configured choice: a label.
    const heldout = [
      task("h1", "Review: 'Awful.'", "negative"),
      task("h2", "Review: 'Bad.'", "negative"),
    ];
    const guard = buildGuardContext({ loaded: loaded(scorer), train, heldout });
    const result = addRule("Answer with one of positive, negative or neutral.", guard);
    expect(result.rejected).toEqual([]);
    expect(result.flagged[0].words.map((word) => [word.text, word.why])).toEqual([
      ["positive", "choice"],
      ["negative", "choice"],
      ["neutral", "choice"],
    ]);
  });

  it("flags a held-out answer that is a word of the train inputs", () => {
    const train = [
      ...yesNoTrain,
      task("t-none", "List the vowels of 'rhythm', or say none.", "none"),
      task("t-a", "List the vowels of 'cat', or say none.", "a"),
    ];
    const heldout = [task("h-none", "List the vowels of 'crwth'.", "none")];
    const guard = buildGuardContext({ loaded: loaded(), train, heldout });
    const result = addRule("When there is nothing to list, answer none.", guard);
    expect(result.rejected).toEqual([]);
    expect(result.flagged[0].words).toEqual([{ text: "none", why: "in-inputs" }]);
  });

  it("refuses a label-looking word that only held-out tasks answer (the refinement never saw it)", () => {
    // 'maybe' is the answer of several held-out tasks, but no train task's answer, no choice and
    // no word of a train input: only a leak could put it in a harness.
    const heldout = [
      ...yesNoHeldout,
      task("h-m1", "Is 1 prime, by an old definition?", "maybe"),
      task("h-m2", "Is 0 prime under some conventions?", "maybe"),
      task("h-m3", "Was 1 called prime by Goldbach?", "maybe"),
    ];
    const guard = buildGuardContext({ loaded: loaded(), train: yesNoTrain, heldout });
    const result = addRule("If unsure, answer maybe.", guard);
    expect(result.applied).toEqual([]);
    expect(result.rejected.map((rejection) => rejection.guard)).toEqual(["leak"]);
  });

  it("does not count a held-out task's own choice list as a configured choice", () => {
    const scorer: ScorerSpec = { kind: "choice", choices: ["amber", "cobalt"] };
    const heldout = [task("h-colour", "Which dye did the guild favour?", "cobalt", scorer)];
    const guard = buildGuardContext({ loaded: loaded(), train: yesNoTrain, heldout });
    const result = addRule("Dyes such as cobalt are common.", guard);
    expect(result.rejected.map((rejection) => rejection.guard)).toEqual(["leak"]);
  });
});

describe("a flagged label word reaches the reviewer", () => {
  it("lists the edit, the file and the words in result.json, report.md and the PR body", async () => {
    const loaded = await fakeProject({
      train: [
        ...specs({ prefix: "c", count: 6, fault: "calc" }),
        ...specs({ prefix: "n", count: 2 }),
      ],
      heldout: specs({ prefix: "h", count: 4, fault: "calc" }),
    });
    // Yes/no tasks beside the fake world's own: 'yes' is the answer of many train tasks.
    const yesNo = (id: string, answer: string) =>
      `${JSON.stringify({ id, input: `task ${id} fault=none answer=${answer}`, expected: answer, category: "a" })}\n`;
    const train = path.join(loaded.root, "tasks", "train.jsonl");
    for (const id of ["y1", "y2", "y3"]) await appendFile(train, yesNo(id, "yes"));
    await appendFile(train, yesNo("y4", "no"));
    const labelRule = {
      module: "prompt" as const,
      patterns: [] as string[],
      rationale: "name the allowed labels",
      edit: {
        kind: "add_rule" as const,
        text: "Answer with yes or no when asked a yes/no question.",
      },
    };
    const { stages } = fakeStages({
      propose: (patterns) => [
        ...patterns.map((pattern) => ruleEdit(pattern.name, [pattern.id])),
        { ...labelRule, patterns: patterns.map((pattern) => pattern.id) },
      ],
    });
    const result = await runEvolve({
      loaded,
      strategy: ecdysisStrategy(),
      outDir: path.join(loaded.root, "out"),
      models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
      stages,
      adapter: fakeAgentAdapter,
      clock: { now: () => 0 },
    });
    const first = result.iterations[0];
    expect(first.verdict).toBe("accepted");
    expect(first.guardRejections).toEqual([]);
    expect(first.labelFlags).toEqual([
      {
        edit: expect.objectContaining({ edit: labelRule.edit }),
        file: "rules.md",
        words: [{ text: "yes", why: "common-answer" }],
      },
    ]);
    expect(result.acceptedEdits.map((edit) => edit.edit)).toContainEqual(labelRule.edit);
    const section =
      /## Label words for the reviewer[\s\S]*?rules\.md.*`yes` \(the answer of many train tasks\).*Answer with yes or no/;
    expect(renderMarkdown(result)).toMatch(section);
    expect(renderPrBody(result).body).toMatch(section);
    expect(renderHtml(result)).toMatch(
      /<h3 id="label-words">Label words for the reviewer<\/h3>[\s\S]*?<code>rules\.md<\/code><\/td><td><code>yes<\/code> \(the answer of many train tasks\)<\/td><td>yes<\/td><td><code>add rule &quot;Answer with yes or no/,
    );
  });
});
