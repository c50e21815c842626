import { describe, expect, it } from "vitest";
import { bundledWorlds, loadWorld } from "./load-world.js";
import { generateWorld } from "./task-generation.js";
import { type MiniHarness, passes, runMini, seedMiniHarness } from "./testing/mini-runtime.js";

const fixes: Record<string, Partial<MiniHarness>> = {
  format: { formatInstruction: "End your reply with a final line of the form 'Answer: <value>'." },
  calculator: { calculator: true },
  hint: { onError: "hint" },
  steps: { maxSteps: 8 },
  keepTask: { overflow: "keep_task" },
};

describe("the sim responds to the harness, not to labels", () => {
  it("the seed harness is weak, the mitigated harness strong, on both splits of every bundled world", async () => {
    for (const name of bundledWorlds()) {
      const world = await loadWorld(name);
      const generated = generateWorld(world);
      const accuracy = (harness: MiniHarness, split: "train" | "heldout") =>
        generated[split].filter((task) =>
          passes(task, runMini({ world, harness, task, knowledge: generated.knowledge }).answer),
        ).length / generated[split].length;
      const seed = seedMiniHarness(world);
      const mitigated = { ...seed, ...Object.assign({}, ...Object.values(fixes)) } as MiniHarness;
      for (const split of ["train", "heldout"] as const) {
        expect(accuracy(seed, split), `${name} ${split} seed`).toBeLessThan(0.6);
        expect(accuracy(mitigated, split), `${name} ${split} mitigated`).toBeGreaterThan(
          accuracy(seed, split) + 0.25,
        );
      }
    }
  });

  it("in the full harness every systematic fix carries its weight (systematic train)", async () => {
    const world = await loadWorld("systematic");
    const generated = generateWorld(world);
    const all = {
      ...seedMiniHarness(world),
      ...Object.assign({}, ...Object.values(fixes)),
    } as MiniHarness;
    const passed = (harness: MiniHarness) =>
      generated.train.filter((task) =>
        passes(task, runMini({ world, harness, task, knowledge: generated.knowledge }).answer),
      ).length;
    const full = passed(all);
    for (const [name, fix] of Object.entries(fixes)) {
      const without = {
        ...all,
        ...Object.fromEntries(
          Object.keys(fix).map((key) => [key, seedMiniHarness(world)[key as keyof MiniHarness]]),
        ),
      };
      expect(passed(without), `without ${name}`).toBeLessThan(full);
    }
  });

  it("the text protocol reaches the same answers as native tools", async () => {
    const world = await loadWorld("quickstart");
    const generated = generateWorld(world);
    const harness = {
      ...seedMiniHarness(world),
      ...Object.assign({}, ...Object.values(fixes)),
    } as MiniHarness;
    for (const task of generated.train.slice(0, 40)) {
      const native = runMini({ world, harness, task, knowledge: generated.knowledge }).answer;
      const text = runMini({
        world,
        harness: { ...harness, textProtocol: true },
        task,
        knowledge: generated.knowledge,
      }).answer;
      expect(text, task.id).toBe(native);
    }
  });
});
