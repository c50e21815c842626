import { describe, expect, it } from "vitest";
import { loadWorld } from "../load-world.js";
import type { SimRequest } from "../sim-request.js";
import { generateWorld } from "../task-generation.js";
import { type JsonObject, objects } from "./evidence.js";
import { refinerReply } from "./refiner-reply.js";

function reflectionRequest(evidence: unknown, sampling: { seed: number; temperature: number }) {
  const content = `Evidence.\n\n\`\`\`json\n${JSON.stringify(evidence)}\n\`\`\``;
  const request: SimRequest = {
    model: "sim-1",
    messages: [{ role: "user", content }],
    tools: [],
    ...sampling,
  };
  return request;
}

const harness = {
  kind: "builtin",
  config: { agent_loop: { max_steps: 3 }, tools: { calculator: { enabled: false } } },
  rules: [],
  editable: ["**"],
  files: [],
};

async function minibatch(failing: number) {
  const tasks = generateWorld(await loadWorld("quickstart")).train.map((task) => task.input);
  const runs = tasks.slice(0, failing).map((task) => ({
    task,
    output: "",
    answer: null,
    events: ["step-limit"],
    toolCalls: [],
    pass: false,
    feedback: { score: 0, verdict: "no-answer" },
  }));
  const passing = {
    task: tasks[10],
    output: "Answer: 3",
    answer: "3",
    events: [],
    toolCalls: [],
    pass: true,
  };
  return [...runs, passing];
}

describe("the sim's one-call reflection", () => {
  it("answers the diagnosis and the edits in one reply, from the failing runs shown (recognised without response_format too)", async () => {
    const world = await loadWorld("neutral");
    const evidence = { minibatch: await minibatch(3), harness, rejected: [] };
    const replies = Array.from({ length: 10 }, (_, seed) =>
      refinerReply(world, reflectionRequest(evidence, { seed, temperature: 1 }), undefined),
    );
    // A neutral refiner (accuracy 0.95) finds the step budget from three instances almost always.
    const right = replies.filter(
      (reply) =>
        objects(reply.diagnoses)[0]?.module === "agent_loop" &&
        objects(reply.edits).some((edit) =>
          JSON.stringify(edit.edit).includes('"path":"agent_loop.max_steps"'),
        ),
    );
    expect(right.length).toBeGreaterThanOrEqual(8);
  });

  it("above temperature 0 the request's seed varies the reply; at 0 every seed answers alike", async () => {
    const world = await loadWorld("quickstart");
    // One failing run: a one-instance diagnosis, right only with accuracyAtOne (0.4).
    const evidence = { minibatch: await minibatch(1), harness, rejected: [] };
    const replies = (temperature: number) =>
      new Set(
        Array.from({ length: 12 }, (_, seed) =>
          JSON.stringify(
            refinerReply(world, reflectionRequest(evidence, { seed, temperature }), "reflection"),
          ),
        ),
      );
    expect(replies(1).size).toBeGreaterThan(1);
    expect(replies(0).size).toBe(1);
  });

  it("does not propose again a fix the rejected proposals show", async () => {
    const world = await loadWorld("neutral");
    const ask = (rejected: unknown[]) =>
      refinerReply(
        world,
        reflectionRequest(
          { minibatch: minibatchRuns, harness, rejected },
          { seed: 3, temperature: 1 },
        ),
        "reflection",
      );
    const minibatchRuns = await minibatch(3);
    const first = objects(ask([]).edits)[0]?.edit as JsonObject;
    expect(first).toMatchObject({ kind: "set", path: "agent_loop.max_steps" });
    const change = `set agent_loop.max_steps to ${JSON.stringify(first.value)}`;
    const again = ask([
      { changes: [{ module: "agent_loop", change }], reason: "no better", patterns: [] },
    ]);
    expect(JSON.stringify(again.edits)).not.toContain(JSON.stringify(first));
  });
});
