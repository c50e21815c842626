import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { EvolveResult } from "../evolve/result-schema.js";
import { runCli } from "./testing/run-cli.js";

let project: string;

const questions = [
  ["What is the capital of France?", "Paris", "geography"],
  ["What is the capital of Japan?", "Tokyo", "geography"],
  ["Which river flows through Cairo?", "Nile", "geography"],
  ["In which year did the Berlin Wall fall?", "1989", "history"],
  ["Who painted the Mona Lisa?", "Leonardo da Vinci", "history"],
  ["Who wrote Hamlet?", "Shakespeare", "history"],
  ["What is the chemical symbol of gold?", "Au", "science"],
  ["How many legs does a spider have?", "8", "science"],
];

const jsonl = (rows: string[][], prefix: string) =>
  `${rows
    .map(([input, expected, category], index) =>
      JSON.stringify({ id: `${prefix}${index}`, input, expected, category }),
    )
    .join("\n")}\n`;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "ecdysis-unknown-"));
  expect((await runCli(["init", "."], { cwd: project })).code).toBe(0);
  await writeFile(join(project, "tasks", "train.jsonl"), jsonl(questions, "t"));
  // Held-out tasks of their own (a task may be in one split only).
  const heldout = [
    ["What is the capital of Italy?", "Rome", "geography"],
    ["Who painted The Starry Night?", "Van Gogh", "history"],
    ["What is the chemical symbol of iron?", "Fe", "science"],
  ];
  await writeFile(join(project, "tasks", "heldout.jsonl"), jsonl(heldout, "h"));
});

describe("your own tasks on the simulated model", () => {
  it("eval: the sim says it does not know them, and eval warns that they are outside its world", async () => {
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "eval"], {
      cwd: project,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "warning: 8 of 8 failing tasks got \"I don't know how to do this task\" from the simulated model: these tasks are outside the simulated world 'quickstart'",
    );
    const records = (await readFile(join(project, "eval", "records.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { output: string });
    expect(records.every((record) => /don't know how to do this task/.test(record.output))).toBe(
      true,
    );
    expect(records.some((record) => /cannot see the question/.test(record.output))).toBe(false);
  });

  it("evolve: warns too, and diagnosis makes no harness pattern (no context loss) of them", async () => {
    const run = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "evo"], {
      cwd: project,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("these tasks are outside the simulated world 'quickstart'");
    const result = JSON.parse(
      await readFile(join(project, "evo", "result.json"), "utf8"),
    ) as EvolveResult;
    const patterns = result.iterations.flatMap((iteration) => iteration.diagnosis?.patterns ?? []);
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter((pattern) => pattern.kind === "systematic")).toEqual([]);
    expect(patterns.every((pattern) => pattern.reasons.some((r) => r.code === "unknown-task")));
    expect(patterns.some((pattern) => /context|lost/.test(pattern.name))).toBe(false);
    expect(result.acceptedEdits).toEqual([]);
    expect(result.stoppedBy).toBe("no-systematic-pattern");
  });
});
