import { describe, expect, it } from "vitest";
import type { Task } from "../config/task-schema.js";
import { generateWorld } from "./task-generation.js";
import { ask, testWorld } from "./testing/sim-fixtures.js";

const direct = (tasks: Task[]) => tasks.filter((task) => task.category === "date-reasoning");
const format =
  "\n\n## Answer format\nEnd your reply with a final line of the form 'Answer: <value>'.";
const correct = (content: string | null, task: Task) =>
  new RegExp(
    `Answer:\\s*${String(task.expected).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`,
  ).test(content ?? "");

describe("final answer", () => {
  it("prompt sensitivity: borderline items flip with any change of the system prompt, both ways", () => {
    const world = testWorld({ promptSensitivity: 0.5, counts: 30 });
    const tasks = direct(generateWorld(world).train);
    const systemA = `You are a helpful assistant.${format}`;
    const systemB = `You are a careful assistant.${format}`;
    const outcome = (system: string, task: Task, seed = 0) =>
      correct(ask(world, task, { system, seed }).content, task);
    const passA = tasks.map((task) => outcome(systemA, task));
    const passB = tasks.map((task) => outcome(systemB, task));
    expect(passA.some((pass, index) => pass && !passB[index])).toBe(true);
    expect(passA.some((pass, index) => !pass && passB[index])).toBe(true);
    // The same prompt gives the same outcome (at temperature 0, whatever the seed).
    for (const [index, task] of tasks.entries())
      expect(outcome(systemA, task, 3)).toBe(passA[index]);
    const steady = testWorld({ counts: 30 });
    for (const task of direct(generateWorld(steady).train))
      expect(correct(ask(steady, task, { system: systemB }).content, task)).toBe(true);
  });

  it("writes the answer label the format instruction names", () => {
    const world = testWorld({});
    const task = direct(generateWorld(world).train)[0];
    const reply = ask(world, task, {
      system: "You are a helpful assistant.\n\nFinish with a last line 'Final answer: <value>'.",
    });
    expect(reply.content).toMatch(new RegExp(`\\nFinal answer: ${task.expected}$`));
  });
});
