import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { simBehaviourVersion } from "./behaviour-version.js";
import { bundledWorlds, loadWorld } from "./load-world.js";
import { refinerReply } from "./refiner/refiner-reply.js";
import type { SimRequest } from "./sim-request.js";
import { generateWorld } from "./task-generation.js";
import { type MiniHarness, runMini, seedMiniHarness } from "./testing/mini-runtime.js";
import type { World } from "./world-schema.js";

/**
 * The fingerprint of the sim's replies recorded for each behaviour version. When this test fails,
 * the sim answers some request differently than the version it claims: bump `simBehaviourVersion`
 * (src/sim/behaviour-version.ts) and record the new fingerprint under the new number, so caches
 * filled by the older sim miss instead of serving its replies.
 */
const recorded: Record<number, string> = {
  1: "53e5695111f133bad4e3a7877b6ab86faaa2911b1f3657892ae9b82d74cd7441",
};

function variants(world: World): MiniHarness[] {
  const seed = seedMiniHarness(world);
  return [
    seed,
    {
      ...seed,
      formatInstruction: "End your reply with a final line of the form 'Answer: <value>'.",
      calculator: true,
      maxSteps: 7,
      onError: "hint",
      overflow: "keep_task",
      onMissing: "reprompt",
    },
    { ...seed, textProtocol: true, rules: [...seed.rules, "Show your work."] },
  ];
}

function roleRequest(evidence: unknown): SimRequest {
  const content = `Here is the evidence.\n\n\`\`\`json\n${JSON.stringify(evidence)}\n\`\`\``;
  return {
    model: "sim-1",
    messages: [{ role: "user", content }],
    tools: [],
    seed: 0,
    temperature: 0,
  };
}

/** Agent replies on every task of every bundled world under three harnesses, and refiner replies. */
async function fingerprint(): Promise<string> {
  const hash = createHash("sha256");
  for (const name of bundledWorlds()) {
    const world = await loadWorld(name);
    const generated = generateWorld(world);
    for (const harness of variants(world))
      for (const task of [...generated.train, ...generated.heldout]) {
        const rollout = runMini({ world, harness, task, knowledge: generated.knowledge });
        hash.update(
          JSON.stringify([name, task.id, rollout.answer, rollout.output, rollout.events]),
        );
      }
    const tasks = generated.train.slice(0, 6).map((task) => task.input);
    const failures = tasks.map((task, index) => ({
      id: `f${index}`,
      task,
      output: index % 2 === 0 ? "So the result is **4**." : "",
      answer: null,
      verdict: "fail",
      events: index % 2 === 0 ? ["no-answer"] : ["step-limit"],
      toolCalls: [],
      steps: 3,
    }));
    hash.update(JSON.stringify(refinerReply(world, roleRequest({ failures }), "failure_notes")));
    const patterns = [
      {
        id: "p1",
        name: "answer-format-drift",
        description: "",
        support: { tasks: 3, categories: 2 },
        examples: failures.filter((_, index) => index % 2 === 0),
      },
      {
        id: "p2",
        name: "step-budget-exhausted",
        description: "",
        support: { tasks: 3, categories: 2 },
        examples: failures.filter((_, index) => index % 2 === 1),
      },
    ];
    const harness = {
      config: { agent_loop: { max_steps: 3 }, tools: { calculator: { enabled: false } } },
      rules: [],
    };
    hash.update(
      JSON.stringify(
        refinerReply(world, roleRequest({ patterns, harness, rejected: [] }), "diagnosis"),
      ),
    );
  }
  return hash.digest("hex");
}

describe("sim behaviour version", () => {
  it("matches the recorded fingerprint of the sim's replies (bump simBehaviourVersion when the sim changes)", async () => {
    const now = await fingerprint();
    const known = recorded[simBehaviourVersion];
    expect(
      now,
      `the sim answers differently from behaviour version ${simBehaviourVersion}: bump simBehaviourVersion in src/sim/behaviour-version.ts to ${simBehaviourVersion + 1} and record ${simBehaviourVersion + 1}: "${now}" in this test`,
    ).toBe(known);
  });
});
