import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannedEditSchema } from "../../harness/types.js";
import { unknownTaskReply } from "../agent-behaviour.js";
import { loadWorld } from "../load-world.js";
import type { SimRequest } from "../sim-request.js";
import { generateWorld } from "../task-generation.js";
import type { World } from "../world-schema.js";
import { diagnosisAccuracy } from "./analysis-roles.js";
import { inferSchemaName, refinerReply } from "./refiner-reply.js";

function roleRequest(evidence: unknown, seed = 0): SimRequest {
  const content = `Here is the evidence.\n\n\`\`\`json\n${JSON.stringify(evidence)}\n\`\`\``;
  return { model: "sim-1", messages: [{ role: "user", content }], tools: [], seed, temperature: 0 };
}

const notesSchema = z.object({
  notes: z.array(z.object({ id: z.string(), note: z.string(), cause: z.string() })),
});
const diagnosesSchema = z.object({
  diagnoses: z.array(
    z.object({
      patternId: z.string(),
      rootCause: z.string(),
      module: z.string(),
      confidence: z.number(),
    }),
  ),
});
const changesSchema = z.object({
  changes: z.array(
    z.object({
      module: z.string(),
      change: z.string(),
      patterns: z.array(z.string()),
      expectedEffect: z.string(),
      regressionRisks: z.string(),
    }),
  ),
});
const critiqueSchema = z.object({
  verdict: z.enum(["accept", "revise", "reject"]),
  objections: z.array(z.object({ change: z.string(), reason: z.string() })),
});

async function tasksOf(name: string) {
  return generateWorld(await loadWorld(name)).train;
}

const stepLimit = (task: string) => ({
  task,
  output: "",
  events: ["step-limit"],
  note: "",
  toolCalls: [],
});
const wrong = (task: string) => ({
  task,
  output: "Answer: 7",
  answer: "7",
  events: [],
  note: "",
  toolCalls: [],
});

function diagnose(
  world: World,
  tasks: string[],
  example: (task: string) => object,
  perPattern: number,
  seed = 0,
) {
  const patterns = [];
  for (let index = 0; index + perPattern <= tasks.length; index += perPattern) {
    const examples = tasks.slice(index, index + perPattern).map(example);
    patterns.push({
      id: `p${index}`,
      name: "failures",
      description: "",
      support: { tasks: perPattern, categories: 1 },
      examples,
    });
  }
  const harness = {
    config: { agent_loop: { max_steps: 3 }, tools: { calculator: { enabled: false } } },
    rules: [],
  };
  const reply = diagnosesSchema.parse(
    refinerReply(world, roleRequest({ patterns, harness, rejected: [] }, seed), "diagnosis"),
  );
  return reply.diagnoses;
}

describe("refiner-side sim", () => {
  it("failure_notes names the cause from the signals", async () => {
    const [task] = await tasksOf("quickstart");
    const failures = [
      {
        id: "a",
        task,
        output: "",
        answer: null,
        verdict: "fail",
        events: ["step-limit"],
        toolCalls: [],
        steps: 3,
      },
      {
        id: "b",
        task,
        output: "I cannot see the question in our conversation.",
        answer: null,
        verdict: "fail",
        events: ["context-overflow", "no-answer"],
        toolCalls: [],
        steps: 2,
      },
      {
        id: "c",
        task,
        output: "The lookup tool returned an error, so I cannot finish this task.",
        answer: null,
        verdict: "fail",
        events: ["tool-error", "no-answer"],
        toolCalls: [{ name: "lookup", arguments: "{}", result: "error: no entry", error: true }],
        steps: 2,
      },
      {
        id: "d",
        task,
        output: "So the result is **4**.",
        answer: null,
        verdict: "fail",
        events: ["no-answer"],
        toolCalls: [],
        steps: 1,
      },
    ];
    const reply = notesSchema.parse(
      refinerReply(await loadWorld("quickstart"), roleRequest({ failures }), "failure_notes"),
    );
    expect(reply.notes.map((note) => note.cause)).toEqual([
      "step-budget-exhausted",
      "task-lost-in-context",
      "gave-up-after-tool-error",
      "answer-format-drift",
    ]);
  });

  it("failure_notes names a task the model said it does not know, with no harness fix", async () => {
    const failures = [
      {
        id: "u",
        task: "What is the capital of France?",
        output: unknownTaskReply,
        answer: null,
        verdict: "fail",
        events: ["no-answer"],
        toolCalls: [],
        steps: 1,
      },
    ];
    const world = await loadWorld("quickstart");
    const notes = notesSchema.parse(
      refinerReply(world, roleRequest({ failures }), "failure_notes"),
    );
    expect(notes.notes[0].cause).toBe("unknown-task");
    expect(notes.notes[0].note).toMatch(/does not know how to do/);
    const diagnosis = diagnosesSchema.parse(
      refinerReply(
        world,
        roleRequest({
          patterns: [
            {
              id: "p-u",
              name: "unknown-task",
              description: "",
              support: { tasks: 8 },
              // Four distinct tasks shown: the sim diagnoses from what it is shown, and one
              // example is one instance of evidence whatever support the pattern claims.
              examples: ["France", "Peru", "Chad", "Laos"].map((country, index) => ({
                ...failures[0],
                id: `u${index}`,
                task: `What is the capital of ${country}?`,
              })),
            },
          ],
        }),
        "diagnosis",
      ),
    );
    expect(diagnosis.diagnoses[0].rootCause).not.toContain("Fix:");
  });

  it("pattern_merge merges groups with the same cause", async () => {
    const groups = [
      {
        key: "g1",
        signals: ["no-answer"],
        causes: ["answer-format-drift"],
        size: 3,
        categories: ["a"],
        examples: [],
      },
      {
        key: "g2",
        signals: ["no-answer"],
        causes: ["answer-format"],
        size: 2,
        categories: ["b"],
        examples: [],
      },
      {
        key: "g3",
        signals: ["step-limit"],
        causes: ["step-budget-exhausted"],
        size: 4,
        categories: ["c"],
        examples: [],
      },
    ];
    const reply = refinerReply(
      await loadWorld("quickstart"),
      roleRequest({ groups }),
      "pattern_merge",
    ) as {
      patterns: { groupKeys: string[]; module: string }[];
    };
    expect(reply.patterns.map((pattern) => pattern.groupKeys)).toEqual([["g1", "g2"], ["g3"]]);
    expect(reply.patterns.map((pattern) => pattern.module)).toEqual(["completion", "agent_loop"]);
  });

  it("diagnoses many instances right more often than one (non-neutral world)", async () => {
    const world = await loadWorld("quickstart");
    const tasks = [...(await tasksOf("systematic")), ...(await tasksOf("quickstart"))].map(
      (task) => task.input,
    );
    const rate = (perPattern: number) => {
      const diagnoses = diagnose(world, tasks, stepLimit, perPattern);
      return (
        diagnoses.filter((d) => d.rootCause.includes("Set agent_loop.max_steps to 7")).length /
        diagnoses.length
      );
    };
    expect(rate(5)).toBeGreaterThan(rate(1) + 0.3);
    expect(rate(1)).toBeGreaterThan(0.2);
  });

  it("diagnoses one instance as well as many in the neutral world, and never as an item hint", async () => {
    const world = await loadWorld("neutral");
    const tasks = [...(await tasksOf("systematic")), ...(await tasksOf("quickstart"))].map(
      (task) => task.input,
    );
    const rate = (perPattern: number) => {
      const diagnoses = diagnose(world, tasks, stepLimit, perPattern);
      return (
        diagnoses.filter((d) => d.rootCause.includes("agent_loop.max_steps")).length /
        diagnoses.length
      );
    };
    expect(rate(1)).toBeGreaterThan(0.85);
    expect(Math.abs(rate(1) - rate(5))).toBeLessThan(0.1);
    expect(diagnose(world, tasks, wrong, 1).some((d) => d.rootCause.includes("mentions"))).toBe(
      false,
    );
  });

  it("the neutral flag alone makes one instance count like many and turns off item hints", async () => {
    const base = await loadWorld("quickstart");
    const neutral: World = { ...base, refiner: { ...base.refiner, neutral: true } };
    expect(diagnosisAccuracy(base, 1)).toBe(0.4);
    expect(diagnosisAccuracy(base, 2)).toBeCloseTo(0.4 + 0.55 / 3);
    expect(diagnosisAccuracy(neutral, 1)).toBe(0.95);
    const tasks = (await tasksOf("quickstart"))
      .filter((task) => task.category === "date-reasoning")
      .map((task) => task.input);
    expect(diagnose(base, tasks, wrong, 1).some((d) => d.rootCause.includes("mentions"))).toBe(
      true,
    );
    expect(diagnose(neutral, tasks, wrong, 1).some((d) => d.rootCause.includes("mentions"))).toBe(
      false,
    );
  });

  it("does not propose a change again once it was rejected", async () => {
    const world = await loadWorld("quickstart");
    const tasks = (await tasksOf("quickstart")).map((task) => task.input);
    const patterns = tasks.slice(0, 30).map((task, index) => ({
      id: `p${index}`,
      name: "failures",
      description: "",
      support: { tasks: 1, categories: 1 },
      examples: [stepLimit(task)],
    }));
    const harness = { config: { agent_loop: { max_steps: 3 } }, rules: [] };
    const ask = (rejected: object[]) =>
      diagnosesSchema.parse(
        refinerReply(world, roleRequest({ patterns, harness, rejected }), "diagnosis"),
      ).diagnoses;
    const first = ask([]);
    const proposed = first.map((d) => /Fix: (.*)$/.exec(d.rootCause)?.[1]).filter(Boolean);
    expect(proposed.length).toBeGreaterThan(0);
    const rejected = [...new Set(proposed)].map((change) => ({
      changes: [{ module: "prompt", change }],
      reason: "no effect",
    }));
    for (const diagnosis of ask(rejected))
      for (const change of proposed) expect(diagnosis.rootCause).not.toContain(`Fix: ${change}`);
  });

  it("retries a fix whose cause it sees when the pattern's attempt was rejected on an earlier harness only", async () => {
    const world = await loadWorld("quickstart");
    const tasks = (await tasksOf("quickstart")).map((task) => task.input).slice(0, 30);
    const harness = { config: { agent_loop: { max_steps: 3 } }, rules: [] };
    const ask = (tried: Map<string, string>, outcome: string) => {
      const patterns = [0, 3, 6, 9, 12, 15, 18, 21, 24, 27].map((index) => {
        const fix = tried.get(`p${index}`);
        return {
          id: `p${index}`,
          name: "cut-at-step-limit",
          description: "",
          support: { tasks: 3, categories: 1 },
          examples: tasks.slice(index, index + 3).map(stepLimit),
          ...(fix ? { previousAttempts: [{ changes: [fix], outcome, why: "no effect" }] } : {}),
        };
      });
      return diagnosesSchema.parse(
        refinerReply(world, roleRequest({ patterns, harness, rejected: [] }), "diagnosis"),
      ).diagnoses;
    };
    const fixOf = (rootCause: string) => /Fix: (.*)$/.exec(rootCause)?.[1];
    const first = new Map(
      ask(new Map(), "").flatMap((d) => {
        const fix = fixOf(d.rootCause);
        return fix?.includes("max_steps") ? [[d.patternId, fix] as const] : [];
      }),
    );
    expect(first.size).toBeGreaterThan(5);
    const again = (outcome: string) =>
      ask(first, outcome).filter((d) => fixOf(d.rootCause) === first.get(d.patternId)).length;
    // The harness has changed since: the failure that sank it may be gone, and the cause is seen
    // (each list is another draw, so not every pattern draws the same fix again).
    expect(again("rejected on an earlier harness")).toBeGreaterThan(0);
    expect(again("rejected")).toBe(0);
  });

  it("does not guess again a rule its pattern's earlier attempts came to nothing with", async () => {
    // A mediocre refiner without item hints: most one-instance diagnoses are generic rules.
    const mediocre = await loadWorld("mediocre-refiner");
    const world: World = { ...mediocre, refiner: { ...mediocre.refiner, hintTendencyAtOne: 0 } };
    const compute = (await tasksOf("mediocre-refiner"))
      .filter((task) => task.category === "arithmetic" || task.category === "unit-conversion")
      .map((task) => task.input);
    const harness = { config: { tools: { calculator: { enabled: false } } }, rules: [] };
    const ruleOf = (rootCause: string) =>
      rootCause.startsWith("The model is careless") ? /"([^"]+)"/.exec(rootCause)?.[1] : undefined;
    const ask = (outcome?: string, tried: Map<string, string> = new Map()) => {
      const patterns = compute.map((task, index) => {
        const rule = tried.get(`p${index}`);
        const previousAttempts = rule
          ? [{ changes: [`Add a rule saying "${rule}".`], outcome, why: "pruned: fixed none" }]
          : undefined;
        const support = { tasks: 1, categories: 1 };
        return {
          id: `p${index}`,
          name: "wrong",
          support,
          examples: [wrong(task)],
          previousAttempts,
        };
      });
      const block = { patterns, harness, rejected: [] };
      return diagnosesSchema.parse(refinerReply(world, roleRequest(block), "diagnosis")).diagnoses;
    };
    const guessed = new Map(
      ask().flatMap((d) => {
        const rule = ruleOf(d.rootCause);
        return rule ? [[d.patternId, rule] as const] : [];
      }),
    );
    expect(guessed.size).toBeGreaterThan(3);
    for (const outcome of ["inconclusive", "rejected on an earlier harness"])
      for (const again of ask(outcome, guessed).filter((d) => guessed.has(d.patternId)))
        expect(ruleOf(again.rootCause)).not.toBe(guessed.get(again.patternId));
  });

  it("one-instance wrong answers sometimes become item-specific hints naming the key phrase", async () => {
    const world = await loadWorld("quickstart");
    const tasks = (await tasksOf("quickstart"))
      .filter((task) => task.category === "date-reasoning")
      .map((task) => task.input);
    const hints = diagnose(world, tasks, wrong, 1).filter((d) => d.rootCause.includes("mentions"));
    expect(hints.length).toBeGreaterThan(0);
    for (const hint of hints)
      expect(
        tasks.some((task) => task.includes(/mentions (.+?),/.exec(hint.rootCause)?.[1] ?? "?")),
      ).toBe(true);
    expect(diagnose(world, tasks, wrong, 4).some((d) => d.rootCause.includes("mentions"))).toBe(
      false,
    );
  });

  it("the Architect, Skeptic and Editor turn diagnoses into guarded-shape edits", async () => {
    const world = await loadWorld("quickstart");
    const strict: World = { ...world, skeptic: { strictness: 1 } };
    const [task, second, third] = await tasksOf("quickstart");
    const keyPhrase = /^([A-Z][a-z]+ [A-Z][a-z]+)/.exec(task.input)?.[1];
    const diagnoses = [
      {
        patternId: "p1",
        rootCause:
          'Prose answers. Fix: Set completion.format_instruction to "End with a final line Answer: <value>."',
        module: "completion",
        confidence: 0.9,
      },
      {
        patternId: "p2",
        rootCause: `Misreads. Fix: Add rule: When a question mentions ${keyPhrase}, re-read it.`,
        module: "prompt",
        confidence: 0.6,
      },
      { patternId: "p3", rootCause: "No harness-level cause.", module: "prompt", confidence: 0.2 },
    ];
    const harness = { config: { completion: { format_instruction: "" } }, rules: [], files: [] };
    const hms = changesSchema.parse(
      refinerReply(world, roleRequest({ diagnoses, objections: [], harness, rejected: [] }), "hms"),
    );
    expect(hms.changes.map((change) => change.patterns)).toEqual([["p1"], ["p2"]]);
    const patterns = [
      {
        id: "p1",
        name: "format",
        support: { tasks: 6, categories: 3 },
        examples: [{ task: task.input }, { task: second.input }, { task: third.input }],
      },
      {
        id: "p2",
        name: "wrong",
        support: { tasks: 1, categories: 1 },
        examples: [{ task: task.input }],
      },
    ];
    const critique = critiqueSchema.parse(
      refinerReply(strict, roleRequest({ hms, diagnoses, patterns }), "critique"),
    );
    expect(critique.verdict).toBe("revise");
    expect(critique.objections.map((objection) => objection.change)).toEqual([
      hms.changes[1].change,
    ]);
    const revised = changesSchema.parse(
      refinerReply(
        world,
        roleRequest({ diagnoses, objections: critique.objections, harness, rejected: [] }),
        "hms",
      ),
    );
    expect(revised.changes).toHaveLength(1);
    const skipped = changesSchema.parse(
      refinerReply(
        world,
        roleRequest({
          diagnoses,
          objections: [],
          harness,
          rejected: [{ edits: ["completion.format_instruction"] }],
        }),
        "hms",
      ),
    );
    expect(skipped.changes.map((change) => change.patterns)).toEqual([["p2"]]);
    const edits = z
      .object({ edits: z.array(plannedEditSchema) })
      .parse(refinerReply(world, roleRequest({ hms: revised, harness }), "edits"));
    expect(edits.edits).toEqual([
      {
        module: "completion",
        patterns: ["p1"],
        rationale: expect.any(String),
        edit: {
          kind: "set",
          path: "completion.format_instruction",
          value: "End with a final line Answer: <value>.",
        },
      },
    ]);
  });

  it("answers from the evidence alone: same block, same reply; the schema name can be inferred", async () => {
    const world = await loadWorld("quickstart");
    const tasks = (await tasksOf("quickstart")).map((task) => task.input);
    const evidence = {
      patterns: [{ id: "p", name: "x", support: { tasks: 1 }, examples: [stepLimit(tasks[0])] }],
      harness: {},
    };
    const reply = refinerReply(world, roleRequest(evidence), "diagnosis");
    expect(refinerReply(world, roleRequest(evidence), "diagnosis")).toEqual(reply);
    expect(refinerReply(world, roleRequest(evidence), undefined)).toEqual(reply);
  });

  it("infers every role from its evidence keys, the Skeptic's (which shows the harness) too", async () => {
    const hms = { changes: [] };
    expect(inferSchemaName({ failures: [] })).toBe("failure_notes");
    expect(inferSchemaName({ groups: [] })).toBe("pattern_merge");
    expect(inferSchemaName({ patterns: [], harness: {} })).toBe("diagnosis");
    expect(inferSchemaName({ diagnoses: [], objections: [], harness: {} })).toBe("hms");
    expect(inferSchemaName({ hms, diagnoses: [], patterns: [], harness: {} })).toBe("critique");
    expect(inferSchemaName({ hms, harness: {} })).toBe("edits");
    expect(inferSchemaName({ task: "t", reference: "1", answer: "1", output: "" })).toBe(
      "judgement",
    );
  });
});

describe("the refiner-side sim reads evidence, not claims", () => {
  const harness = {
    config: { agent_loop: { max_steps: 3 }, tools: { calculator: { enabled: false } } },
    rules: [],
  };
  const ask = (world: World, patterns: object[]) =>
    diagnosesSchema.parse(
      refinerReply(world, roleRequest({ patterns, harness, rejected: [] }), "diagnosis"),
    ).diagnoses;
  const drift = (task: string) => ({
    task,
    output: "So it is 7.",
    answer: null,
    events: ["no-answer"],
    note: "",
    toolCalls: [],
  });
  const stepFixed = (diagnoses: { rootCause: string }[]) =>
    diagnoses.filter((d) => d.rootCause.includes("Set agent_loop.max_steps to 7")).length /
    diagnoses.length;

  it("keys diagnosis accuracy on the distinct examples shown, not the support the prompt claims", async () => {
    const world = await loadWorld("quickstart");
    const tasks = [...(await tasksOf("systematic")), ...(await tasksOf("quickstart"))].map(
      (task) => task.input,
    );
    const shown = (count: number, claimed: number, repeat = false) =>
      tasks.slice(0, 80).map((task, index) => ({
        id: `p${index}`,
        name: "failures",
        description: "",
        support: { tasks: claimed, categories: 1 },
        examples: Array.from({ length: count }, (_, offset) =>
          stepLimit(repeat ? task : tasks[(index + offset * 17) % tasks.length]),
        ),
      }));
    const many = stepFixed(ask(world, shown(5, 5)));
    const one = stepFixed(ask(world, shown(1, 1)));
    // One example with a claimed support of 10 is diagnosed as one example is, not as ten.
    const claimed = stepFixed(ask(world, shown(1, 10)));
    expect(many).toBeGreaterThan(one + 0.3);
    expect(Math.abs(claimed - one)).toBeLessThan(0.15);
    // The same task shown five times is one instance of evidence.
    expect(Math.abs(stepFixed(ask(world, shown(5, 5, true))) - one)).toBeLessThan(0.15);
  });

  it("proposes one fix per distinct cause it sees in a pattern, each from its own examples", async () => {
    const world = await loadWorld("neutral");
    const tasks = (await tasksOf("quickstart")).map((task) => task.input);
    const patterns = tasks.slice(0, 20).map((task, index) => ({
      id: `m${index}`,
      name: "observed-failure",
      description: "",
      support: { tasks: 3, categories: 2 },
      examples: [
        stepLimit(task),
        stepLimit(tasks[(index + 7) % tasks.length]),
        drift(tasks[(index + 13) % tasks.length]),
      ],
    }));
    const diagnoses = ask(world, patterns);
    for (const pattern of patterns) {
      const mine = diagnoses.filter((d) => d.patternId === pattern.id);
      expect(mine).toHaveLength(2);
    }
    // The neutral refiner diagnoses almost every cause right: both fixes appear, per pattern.
    const withBoth = patterns.filter((pattern) => {
      const causes = diagnoses.filter((d) => d.patternId === pattern.id).map((d) => d.rootCause);
      return (
        causes.some((c) => c.includes("agent_loop.max_steps")) &&
        causes.some((c) => c.includes("completion.format_instruction"))
      );
    });
    expect(withBoth.length).toBeGreaterThan(14);
  });

  it("objects to a change whose pattern claims many tasks but shows one example", async () => {
    const world = await loadWorld("quickstart");
    const strict: World = { ...world, skeptic: { strictness: 1 } };
    const tasks = await tasksOf("quickstart");
    const change = 'Set completion.format_instruction to "End with Answer: <value>."';
    const hms = { changes: [{ module: "completion", change, patterns: ["p1"] }] };
    const critique = (examples: object[]) =>
      critiqueSchema.parse(
        refinerReply(
          strict,
          roleRequest({
            hms,
            diagnoses: [],
            patterns: [
              { id: "p1", name: "format", support: { tasks: 9, categories: 3 }, examples },
            ],
          }),
          "critique",
        ),
      );
    expect(critique([{ task: tasks[0].input }]).verdict).toBe("reject");
    expect(critique([{ task: tasks[0].input }, { task: tasks[0].input }]).verdict).toBe("reject");
    expect(critique([{ task: tasks[0].input }, { task: tasks[1].input }]).verdict).toBe("accept");
  });
});
