import { describe, expect, it } from "vitest";
import { taskSchema } from "../config/task-schema.js";
import { statementOf } from "./exposure.js";
import { recognise } from "./families/recognise.js";
import { loadWorld } from "./load-world.js";
import { generateWorld } from "./task-generation.js";
import { type World, worldSchema } from "./world-schema.js";

function answerOf(text: string): string | number | undefined {
  const problem = recognise(text);
  if (!problem) return undefined;
  if (problem.kind === "compute") return problem.value;
  if (problem.kind === "direct") return problem.numeric ? Number(problem.answer) : problem.answer;
  return undefined;
}

describe("generateWorld", () => {
  it("generates valid tasks whose statements the sim recognises and solves to the expected answer", async () => {
    const world = await loadWorld("quickstart");
    const generated = generateWorld(world);
    expect(generated.train).toHaveLength(40);
    expect(generated.heldout).toHaveLength(40);
    for (const task of [...generated.train, ...generated.heldout]) {
      expect(() => taskSchema.parse(task)).not.toThrow();
      const problem = recognise(task.input);
      expect(problem, task.input).not.toBeNull();
      if (problem?.kind !== "chain") expect(answerOf(task.input)).toEqual(task.expected);
      const truth = generated.truth.find((entry) => entry.id === task.id);
      expect(statementOf(task.input)).toContain(truth?.keyPhrase);
      expect(problem?.keyPhrase).toBe(truth?.keyPhrase);
    }
    const numeric = generated.train.filter((task) => typeof task.expected === "number");
    expect(numeric.every((task) => task.scorer?.kind === "numeric")).toBe(true);
  });

  it("answers every multi-hop question by following the registry it writes", async () => {
    const world = await loadWorld("systematic");
    const generated = generateWorld(world);
    const entries = new Map<string, Record<string, string>>();
    for (const block of generated.knowledge.split(/^## /m).slice(1)) {
      const [name, ...lines] = block.trim().split("\n");
      entries.set(
        name,
        Object.fromEntries(lines.map((line) => line.slice(2).split(": ") as [string, string])),
      );
    }
    const chains = generated.train.filter((task) => task.category === "multi-hop");
    expect(chains.length).toBe(12);
    for (const task of chains) {
      const problem = recognise(task.input);
      if (problem?.kind !== "chain") throw new Error("not a chain");
      let current = problem.start;
      for (const relation of problem.relations) current = entries.get(current)?.[relation] ?? "?";
      expect(current).toBe(task.expected);
    }
  });

  it("is deterministic in the seed, and another seed gives other tasks", async () => {
    const world = await loadWorld("quickstart");
    expect(generateWorld(world)).toEqual(generateWorld(structuredClone(world)));
    const other: World = worldSchema.parse({ ...world, seed: world.seed + 1 });
    expect(generateWorld(other).train.map((task) => task.input)).not.toEqual(
      generateWorld(world).train.map((task) => task.input),
    );
  });

  it("uses distinct key phrases and keeps train and held-out apart", async () => {
    const generated = generateWorld(await loadWorld("noisy"));
    const phrases = generated.truth.map((entry) => entry.keyPhrase);
    expect(new Set(phrases).size).toBe(phrases.length);
    const train = new Set(generated.train.map((task) => task.input));
    expect(generated.heldout.some((task) => train.has(task.input))).toBe(false);
  });

  it("records every systematic kind in the quickstart ground truth, and item slips per model", async () => {
    const generated = generateWorld(await loadWorld("quickstart"));
    const kinds = new Set(
      generated.truth.flatMap((entry) => entry.deficiencies.map((d) => d.kind)),
    );
    for (const kind of [
      "format-drift",
      "arithmetic-slip",
      "step-budget",
      "tool-error-giveup",
      "context-loss",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    const slips = generated.truth.flatMap((entry) =>
      entry.deficiencies.filter((d) => d.kind === "item-slip"),
    );
    expect(slips.length).toBeGreaterThan(0);
    expect(slips.every((slip) => slip.systematic === false && slip.model === "sim-1")).toBe(true);
  });
});

describe("recognise", () => {
  it("finds the statement of a long input whose middle was cut", async () => {
    const generated = generateWorld(await loadWorld("systematic"));
    const long = generated.train.filter((task) => task.input.includes("\n\nTask: "));
    expect(long.length).toBeGreaterThan(0);
    for (const task of long) {
      const statement = statementOf(task.input);
      const cut = `${task.input.slice(0, 300)} …[1800 chars cut]… ${statement}`;
      expect(recognise(cut)?.keyPhrase).toBe(recognise(task.input)?.keyPhrase);
    }
    expect(recognise("Background notes for this request: The archive opens at dawn.")).toBeNull();
  });
});
