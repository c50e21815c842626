import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing/run-cli.js";
import { GuardError } from "../../src/errors/guard-error.js";
import type { RunContext } from "../../src/evolve/run-context.js";
import { runEvolve } from "../../src/evolve/run-evolve.js";
import type { Strategy } from "../../src/evolve/strategy.js";
import { fakeStages } from "../../src/evolve/testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  fakeTask,
  specs,
} from "../../src/evolve/testing/fake-world.js";
import type { LoadedHarness } from "../../src/harness/types.js";

// Issue #10 item 1: the held-out split stays sealed. Overlapping splits are refused before any
// rollout; in production every role call and every stage door is checked against held-out data.

let template: string;

beforeAll(async () => {
  template = await mkdtemp(join(tmpdir(), "ecdysis-split-template-"));
  expect((await runCli(["init", ".", "--world", "quickstart"], { cwd: template })).code).toBe(0);
});

/** A fresh copy of the quickstart project whose train file gets `extra` appended. */
async function project(edit: (files: { train: string; heldout: string }) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-split-"));
  await cp(template, dir, { recursive: true });
  await edit({
    train: join(dir, "tasks", "train.jsonl"),
    heldout: join(dir, "tasks", "heldout.jsonl"),
  });
  return dir;
}

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "");
}

const commands: [string, string[]][] = [
  ["evolve", ["evolve", "--config", "ecdysis.yml", "--out", "out"]],
  ["eval", ["eval", "--config", "ecdysis.yml", "--out", "out"]],
  [
    "gate",
    ["gate", "--config", "ecdysis.yml", "--base", "harness", "--head", "harness", "--out", "out"],
  ],
];

describe("overlapping splits are an input error before any rollout", () => {
  it.each(commands)("%s: a held-out line copied into the train file", async (_name, argv) => {
    const dir = await project(async ({ train, heldout }) => {
      const copied = (await lines(heldout))[2];
      const trainLines = await lines(train);
      await writeFile(train, `${[...trainLines, copied].join("\n")}\n`);
    });
    const trainCount = (await lines(join(dir, "tasks", "train.jsonl"))).length;
    const run = await runCli(argv, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`train.jsonl: line ${trainCount}`);
    expect(run.stderr).toContain("heldout.jsonl line 3");
    expect(run.stderr).toMatch(/same id/);
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(existsSync(join(dir, ".ecdysis"))).toBe(false);
  });

  it("a held-out input reused under a new id, in another case, spacing and width", async () => {
    const dir = await project(async ({ train, heldout }) => {
      const task = JSON.parse((await lines(heldout))[0]);
      const disguised = {
        ...task,
        id: "fresh-id",
        input: `  ${task.input.toUpperCase().replace(/ /g, "\u3000 ").replace("A", "Ａ")}\n`,
      };
      await writeFile(train, `${JSON.stringify(disguised)}\n${(await lines(train)).join("\n")}\n`);
    });
    const run = await runCli(commands[0][1], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("train.jsonl: line 1");
    expect(run.stderr).toContain("heldout.jsonl line 1");
    expect(run.stderr).toMatch(/same input/);
  });

  it("train and heldout pointing at the same file", async () => {
    const dir = await project(async () => undefined);
    const config = join(dir, "ecdysis.yml");
    const text = await readFile(config, "utf8");
    await writeFile(
      config,
      text.replace("heldout: tasks/heldout.jsonl", "heldout: tasks/train.jsonl"),
    );
    const run = await runCli(commands[1][1], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/'tasks\.heldout'.*same file as 'tasks\.train'/);
  });
});

describe("in production, held-out data never reaches a role", () => {
  const train = [
    ...specs({ prefix: "c", count: 4, fault: "calc" }),
    ...specs({ prefix: "n", count: 4 }),
  ];
  const heldout = specs({ prefix: "h", count: 4, fault: "calc" });

  /** A strategy with a bug: it shows a role something that came from the held-out file. */
  function leakyStrategy(
    leak: (context: RunContext, seed: LoadedHarness) => Promise<unknown>,
  ): Strategy {
    return {
      name: "ecdysis",
      streams: {},
      open: (context) => ({
        async start(seed) {
          await leak(context, seed);
          return { harness: seed, memory: [] };
        },
        stop: () => "no-failures",
        propose: () => Promise.reject(new Error("not reached")),
        validate: () => Promise.reject(new Error("not reached")),
        next: (state) => state,
      }),
    };
  }

  async function runLeaky(leak: (context: RunContext, seed: LoadedHarness) => Promise<unknown>) {
    const loaded = await fakeProject({ train, heldout });
    const { stages } = fakeStages();
    return runEvolve({
      loaded,
      strategy: leakyStrategy(leak),
      outDir: join(loaded.root, "out"),
      models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
      stages,
      adapter: fakeAgentAdapter,
      clock: { now: () => 0 },
    });
  }

  const secretTask = fakeTask(heldout[1]);

  it("refuses a refiner call whose prompt carries a held-out input (JSON-escaped in evidence)", async () => {
    const leak = runLeaky((context) =>
      context.models.refiner.chat({
        messages: [
          { role: "user", content: `evidence: ${JSON.stringify({ task: secretTask.input })}` },
        ],
        purpose: "diagnostician",
      }),
    );
    await expect(leak).rejects.toBeInstanceOf(GuardError);
    await expect(leak).rejects.toThrow(/held-out/);
  });

  it("refuses a diagnosis handed a held-out task", async () => {
    const leak = runLeaky((context) =>
      context.stages.diagnose({
        records: [],
        tasks: [...context.train, { ...secretTask, id: "renamed" }],
        refiner: context.models.refiner,
        minSupport: { tasks: 3, categories: 1 },
      }),
    );
    await expect(leak).rejects.toThrow(/held-out/);
  });

  it("refuses a training evaluation of a held-out task", async () => {
    const leak = runLeaky((context, seed) =>
      context.evaluate({ tasks: [secretTask], harness: seed, label: "leak" }),
    );
    await expect(leak).rejects.toThrow(/held-out/);
  });

  it("still lets a clean run through", async () => {
    await expect(runLeaky(async () => undefined)).resolves.toMatchObject({
      stoppedBy: "no-failures",
    });
  });
});
