import { describe, expect, it } from "vitest";
import type { Task } from "../config/task-schema.js";
import { unknownTaskReply } from "./agent-behaviour.js";
import type { SimMessage } from "./sim-request.js";
import { generateWorld } from "./task-generation.js";
import { answerLine, ask, testWorld } from "./testing/sim-fixtures.js";
import type { World } from "./world-schema.js";

const formatRule =
  "## Answer format\nEnd your reply with a final line of the form 'Answer: <value>'.";

function tasksOf(world: World, filter: (kinds: string[], task: Task) => boolean): Task[] {
  const generated = generateWorld(world);
  return generated.train.filter((task) => {
    const truth = generated.truth.find((entry) => entry.id === task.id);
    return filter(truth?.deficiencies.map((d) => d.kind) ?? [], task);
  });
}

describe("agent-side sim", () => {
  it("gives the same reply to the same request", () => {
    const world = testWorld({ systematic: { "format-drift": 0.5 }, modelSpecific: { flaky: 0.3 } });
    for (const task of generateWorld(world).train) {
      expect(ask(world, task, { tools: ["lookup"] })).toEqual(
        ask(world, task, { tools: ["lookup"] }),
      );
    }
  });

  it("is sensitive to the request seed only through flakiness, and only above temperature 0", () => {
    const steady = testWorld({
      systematic: { "format-drift": 0.5, "arithmetic-slip": 0.5 },
      modelSpecific: { itemSlip: 0.3 },
    });
    for (const task of generateWorld(steady).train) {
      expect(ask(steady, task, { seed: 0 }).content).toBe(ask(steady, task, { seed: 7 }).content);
    }
    const flaky = testWorld({ modelSpecific: { flaky: 0.3 } });
    const tasks = generateWorld(flaky).train.filter((task) => task.category === "date-reasoning");
    const warm = { temperature: 0.7 };
    const differs = tasks.filter(
      (task) =>
        ask(flaky, task, { seed: 0, ...warm }).content !==
        ask(flaky, task, { seed: 1, ...warm }).content,
    );
    expect(differs.length).toBeGreaterThan(0);
    expect(differs.length).toBeLessThan(tasks.length);
    // At temperature 0 a model is deterministic: every seed gives the reply of seed 0.
    for (const task of tasks)
      expect(ask(flaky, task, { seed: 1 }).content).toBe(ask(flaky, task, { seed: 0 }).content);
  });

  it("format drift: prose without an instruction, an Answer line with one or when re-prompted", () => {
    const world = testWorld({ systematic: { "format-drift": 0.5 } });
    const drifting = tasksOf(
      world,
      (kinds, task) => kinds.includes("format-drift") && task.category === "date-reasoning",
    );
    const steady = tasksOf(
      world,
      (kinds, task) => !kinds.includes("format-drift") && task.category === "date-reasoning",
    );
    expect(drifting.length).toBeGreaterThan(0);
    for (const task of drifting) {
      const plain = ask(world, task);
      expect(answerLine(plain)).toBeNull();
      expect(plain.content).toContain(`**${task.expected}**`);
      expect(answerLine(ask(world, task, { system: `Be helpful.\n\n${formatRule}` }))).toBe(
        task.expected,
      );
      const reprompt = [
        { role: "assistant" as const, content: plain.content ?? "" },
        { role: "user" as const, content: "Reply with one line of the form 'Answer: <value>'." },
      ];
      expect(answerLine(ask(world, task, { after: reprompt }))).toBe(task.expected);
    }
    for (const task of steady) expect(answerLine(ask(world, task))).toBe(task.expected);
  });

  it("arithmetic slip: wrong number without a calculator, a calculator call when one is offered", () => {
    const world = testWorld({ systematic: { "arithmetic-slip": 0.5 } });
    const slipping = tasksOf(world, (kinds) => kinds.includes("arithmetic-slip"));
    expect(slipping.length).toBeGreaterThan(2);
    for (const task of slipping) {
      const guess = answerLine(ask(world, task));
      expect(guess).not.toBeNull();
      expect(Number(guess)).not.toBe(task.expected);
      const call = ask(world, task, { tools: ["calculator"] });
      expect(call.toolCalls).toHaveLength(1);
      expect(call.toolCalls[0].name).toBe("calculator");
      const { expression } = JSON.parse(call.toolCalls[0].arguments) as { expression: string };
      expect(expression).toMatch(/^[\d+\-*/(). ]+$/);
      const after = [
        {
          role: "assistant" as const,
          content: "",
          toolCalls: [{ id: "c1", ...call.toolCalls[0] }],
        },
        { role: "tool" as const, toolCallId: "c1", content: String(task.expected) },
      ];
      expect(Number(answerLine(ask(world, task, { tools: ["calculator"], after })))).toBe(
        task.expected,
      );
    }
  });

  it("sample-dependent slips: some arithmetic slips depend on the sample, so a vote repairs some; a calculator repairs all", () => {
    const world = testWorld({
      systematic: { "arithmetic-slip": 1 },
      sampleDependent: { share: 0.5, chance: 0.3 },
    });
    const generated = generateWorld(world);
    const affected = generated.train.filter((task) =>
      generated.truth
        .find((entry) => entry.id === task.id)
        ?.deficiencies.some((d) => d.kind === "arithmetic-slip"),
    );
    const sampled = affected.filter((task) =>
      generated.truth
        .find((entry) => entry.id === task.id)
        ?.deficiencies.some((d) => d.kind === "arithmetic-slip" && d.sampled),
    );
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.length).toBeLessThan(affected.length);
    const warm = { temperature: 0.7 };
    const wrongShare = (task: Task) => {
      const seeds = Array.from({ length: 15 }, (_, seed) => seed);
      const wrong = seeds.filter(
        (seed) => Number(answerLine(ask(world, task, { seed, ...warm }))) !== task.expected,
      );
      return wrong.length / seeds.length;
    };
    // A sample-dependent item slips on some samples only; a majority of 15 is right for most.
    const shares = sampled.map(wrongShare);
    expect(shares.every((share) => share < 1)).toBe(true);
    expect(shares.filter((share) => share < 0.5).length).toBeGreaterThan(sampled.length / 2);
    // The others slip on every sample, and at temperature 0 every sample is the same sample.
    for (const task of affected.filter((candidate) => !sampled.includes(candidate)))
      expect(wrongShare(task)).toBe(1);
    for (const task of sampled)
      expect(ask(world, task, { seed: 3 }).content).toBe(ask(world, task, { seed: 0 }).content);
    // A calculator repairs every one of them, on every sample.
    for (const task of sampled)
      expect(ask(world, task, { tools: ["calculator"], ...warm }).toolCalls[0]?.name).toBe(
        "calculator",
      );
  });

  it("tool error: a malformed call, then giving up unless a hint or a system rule guides a retry", () => {
    const world = testWorld({ systematic: { "tool-error-giveup": 0.5 } });
    const affected = tasksOf(world, (kinds) => kinds.includes("tool-error-giveup"));
    expect(affected.length).toBeGreaterThan(0);
    for (const task of affected) {
      const first = ask(world, task, { tools: ["lookup"] });
      const call = first.toolCalls[0];
      expect(call.arguments).toContain("'s record");
      const failed = (result: string) => [
        {
          role: "assistant" as const,
          content: first.content ?? "",
          toolCalls: [{ id: "c1", ...call }],
        },
        { role: "tool" as const, toolCallId: "c1", content: result },
      ];
      const error = "error: no entry named 'x'";
      const gaveUp = ask(world, task, { tools: ["lookup"], after: failed(error) });
      expect(gaveUp.toolCalls).toHaveLength(0);
      expect(answerLine(gaveUp)).toBeNull();
      expect(gaveUp.hits).toContain("tool-error-giveup");
      const hinted = ask(world, task, {
        tools: ["lookup"],
        after: failed(`${error}\n\nHint: check the key.`),
      });
      expect(hinted.toolCalls[0].arguments).not.toContain("'s record");
      const ruled = ask(world, task, {
        tools: ["lookup"],
        system: "- If a tool call fails with an error, fix the arguments and retry.",
        after: failed(error),
      });
      expect(ruled.toolCalls[0]?.name).toBe("lookup");
    }
  });

  it("multi-hop: one lookup per turn, as many turns as hops before the answer", () => {
    const world = testWorld({ systematic: { "step-budget": 1 } });
    const generated = generateWorld(world);
    const task = generated.train.find((entry) => entry.category === "multi-hop") as Task;
    const hops = generated.truth.find((entry) => entry.id === task.id)?.hops ?? 0;
    expect(hops).toBeGreaterThanOrEqual(3);
    const entries = generated.knowledge.split(/^(?=## )/m);
    const after: SimMessage[] = [];
    for (let turn = 0; turn < hops; turn++) {
      const reply = ask(world, task, { tools: ["lookup"], after });
      expect(reply.toolCalls).toHaveLength(1);
      const key = (JSON.parse(reply.toolCalls[0].arguments) as { key: string }).key;
      const entry = entries.find((block) => block.startsWith(`## ${key}\n`)) as string;
      after.push({
        role: "assistant",
        content: reply.content ?? "",
        toolCalls: [{ id: `c${turn}`, ...reply.toolCalls[0] }],
      });
      after.push({ role: "tool", toolCallId: `c${turn}`, content: entry.trim() });
    }
    expect(answerLine(ask(world, task, { tools: ["lookup"], after }))).toBe(task.expected);
  });

  it("says it cannot see the question when the statement was dropped", () => {
    const world = testWorld({});
    const task = generateWorld(world).train.find((entry) => entry.category === "multi-hop") as Task;
    const after = [
      {
        role: "assistant" as const,
        content: "",
        toolCalls: [{ id: "c1", name: "lookup", arguments: '{"key":"x"}' }],
      },
      { role: "tool" as const, toolCallId: "c1", content: "## X\n- kind: person" },
    ];
    const lost = ask(world, task, { tools: ["lookup"], after, drop: true });
    expect(lost.content).toMatch(/cannot see the question/);
    expect(lost.hits).toEqual(["context-loss"]);
    expect(ask(world, task, { tools: ["lookup"] }).toolCalls[0].name).toBe("lookup");
  });

  it("says plainly that it does not know a task outside its world, which is not a lost statement", () => {
    const world = testWorld({});
    const task: Task = {
      id: "x",
      input: "What is the capital of France?",
      expected: "Paris",
      category: "geography",
    };
    const first = ask(world, task, { tools: ["lookup", "calculator"] });
    expect(first.content).toBe(unknownTaskReply);
    expect(first.content).not.toMatch(/cannot see the question|Answer:/);
    expect(first.toolCalls).toEqual([]);
    expect(first.hits).toEqual([]);
    // Still visible later in the conversation (re-prompted for an answer line): still unknown.
    const reprompt = [
      { role: "assistant" as const, content: unknownTaskReply },
      { role: "user" as const, content: "End with one line of the form 'Answer: <value>'." },
    ];
    expect(ask(world, task, { after: reprompt }).content).toBe(unknownTaskReply);
    // The statement dropped from the context: that is the other reply.
    const dropped = ask(world, task, {
      drop: true,
      after: [
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "lookup", arguments: "{}" }],
        },
        { role: "tool", toolCallId: "c1", content: "error: no entry named ''" },
      ],
    });
    expect(dropped.content).toMatch(/cannot see the question/);
  });

  it("an item hint flips only that item's slip; another model slips on other items", () => {
    const world = testWorld({ modelSpecific: { itemSlip: 1 } });
    const tasks = generateWorld(world).train.filter((task) => task.category === "extraction");
    const [first, second] = tasks;
    expect(answerLine(ask(world, first))).not.toBe(String(first.expected));
    const keyPhrase = /of ([A-Z][a-z]+ [A-Z][a-z]+)'s parcel/.exec(first.input)?.[1];
    const system = `- When a question mentions ${keyPhrase}, re-read every detail of it.`;
    expect(answerLine(ask(world, first, { system }))).toBe(String(first.expected));
    expect(answerLine(ask(world, second, { system }))).not.toBe(String(second.expected));
    const half = testWorld({ modelSpecific: { itemSlip: 0.4 } });
    const slipsOf = (model: string) =>
      generateWorld(half).train.map(
        (task) =>
          answerLine(ask(half, task, { model, tools: ["lookup"] })) !== String(task.expected),
      );
    expect(slipsOf("sim-1")).not.toEqual(slipsOf("probe-2"));
  });

  it("every rule beyond freeRules costs accuracy, monotonically", () => {
    const world = testWorld({ ruleCost: 0.1, freeRules: 1 });
    const tasks = generateWorld(world).train.filter((task) => task.category !== "multi-hop");
    const wrong = (rules: number) => {
      const system = Array.from({ length: rules }, (_, index) => `- Rule number ${index}.`).join(
        "\n",
      );
      return new Set(
        tasks
          .filter((task) => answerLine(ask(world, task, { system })) !== String(task.expected))
          .map((task) => task.id),
      );
    };
    expect(wrong(1).size).toBe(0);
    const three = wrong(3);
    const six = wrong(6);
    expect(six.size).toBeGreaterThan(three.size);
    for (const id of three) expect(six.has(id)).toBe(true);
  });

  it("speaks the text protocol when tools are listed under ## Tools", () => {
    const world = testWorld({});
    const generated = generateWorld(world);
    const task = generated.train.find((entry) => entry.category === "multi-hop") as Task;
    const system = 'Be helpful.\n\n## Tools\n- lookup: find an entry. Arguments: {"key": "..."}';
    const reply = ask(world, task, { system });
    expect(reply.toolCalls).toHaveLength(0);
    const match = /^CALL lookup (\{.*\})$/m.exec(reply.content ?? "");
    expect(match).not.toBeNull();
    const key = (JSON.parse(match?.[1] ?? "{}") as { key: string }).key;
    const entry = generated.knowledge
      .split(/^(?=## )/m)
      .find((block) => block.startsWith(`## ${key}\n`)) as string;
    const next = ask(world, task, {
      system,
      after: [
        { role: "assistant", content: reply.content ?? "" },
        { role: "user", content: `RESULT lookup: ${entry.trim()}` },
      ],
    });
    expect(next.content).toMatch(/CALL lookup|Answer:/);
    expect(next.content).not.toContain(`"key":"${key}"`);
  });
});
