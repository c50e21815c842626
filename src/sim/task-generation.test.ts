import { createHash } from "node:crypto";
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

describe("generateWorld at scale", () => {
  it("builds a world of 5,000 tasks per family and split: ids and key phrases distinct, every task recognised and solved", async () => {
    const world = await loadWorld("quickstart");
    for (const family of world.families) family.counts = { train: 5000, heldout: 5000 };
    const generated = generateWorld(world);
    expect(generated.train).toHaveLength(25_000);
    expect(generated.heldout).toHaveLength(25_000);
    const all = [...generated.train, ...generated.heldout];
    expect(new Set(all.map((task) => task.id)).size).toBe(all.length);
    const phrases = generated.truth.map((entry) => entry.keyPhrase);
    expect(new Set(phrases).size).toBe(phrases.length);
    for (const task of all) {
      const problem = recognise(task.input);
      expect(problem, task.input).not.toBeNull();
      if (problem?.kind !== "chain")
        expect(answerOf(task.input), task.input).toEqual(task.expected);
    }
  }, 60_000);

  it("draws the same tasks as before for every bundled world (the longer names only start where the plain ones run out)", async () => {
    // Digests of generateWorld before the name space grew: a world that fits is unchanged.
    const pinned: Record<string, string> = {
      quickstart: "1a39eedf0bd4595b",
      systematic: "2104a545f755c63a",
      noisy: "687cdc837581cd96",
      sparse: "b9150e8dc4174c4b",
      neutral: "c23867442961ea44",
      plainspoken: "4f448d591d1150ed",
    };
    for (const [name, digest] of Object.entries(pinned)) {
      const generated = generateWorld(await loadWorld(name));
      const actual = createHash("sha256").update(JSON.stringify(generated)).digest("hex");
      expect(actual.slice(0, 16), name).toBe(digest);
    }
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
