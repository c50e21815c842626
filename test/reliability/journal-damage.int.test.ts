import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing/run-cli.js";
import { readEvolveResult } from "../../src/evolve/result-schema.js";
import { comparable, quickstartProject } from "./project.js";

// Issue #10 item 7: a journal that cannot be read is an input error naming file and line (never
// "unexpected error"); a last line cut short by a kill is dropped with a warning and that stage
// runs again; a replayed stage output of the wrong shape is recomputed. Never a silent replay of
// wrong work, never a finished stage lost without saying so.

const evolve = (...extra: string[]) => [
  "evolve",
  "--config",
  "ecdysis.yml",
  "--out",
  "out",
  ...extra,
];

let reference: Record<string, unknown>;

/** A finished quickstart run; its journal lines and result. */
async function finishedRun() {
  const dir = await quickstartProject();
  const run = await runCli(evolve(), { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  const file = join(dir, "out", "journal.jsonl");
  const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
  return { dir, file, lines };
}

const resultOf = async (dir: string) =>
  comparable(await readEvolveResult(join(dir, "out", "result.json"))) as Record<string, unknown>;

/** The result without its spend: a run replayed from the caches pays less for the same work. */
const work = ({ cost: _cost, ...rest }: Record<string, unknown>) => rest;

beforeAll(async () => {
  const { dir } = await finishedRun();
  reference = await resultOf(dir);
});

describe("a damaged run journal", () => {
  it("a header that is not JSON: an input error naming the file, line 1 and the way out; --restart recovers", async () => {
    const { dir, file, lines } = await finishedRun();
    await writeFile(file, `${lines[0].slice(0, 30)}\n${lines.slice(1).join("\n")}\n`);
    const refused = await runCli(evolve(), { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/journal\.jsonl: line 1: .*header is damaged/);
    expect(refused.stderr).toMatch(/--restart/);
    expect(refused.stderr).not.toMatch(/unexpected error/);
    const restarted = await runCli(evolve("--restart"), { cwd: dir });
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(work(await resultOf(dir))).toEqual(work(reference));
  });

  it("a middle line of the wrong shape: an input error naming its line and field, nothing replayed", async () => {
    const { dir, file, lines } = await finishedRun();
    const damaged = [...lines];
    damaged[4] = JSON.stringify({ type: "stage", stage: "iteration-1/refine", output: {} });
    await writeFile(file, `${damaged.join("\n")}\n`);
    const refused = await runCli(evolve(), { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/journal\.jsonl: line 5: 'spend': is not a stage entry/);
    expect(refused.stderr).not.toMatch(/unexpected error/);
    const garbage = [...lines];
    garbage[2] = "\u0000\u0000 not json";
    await writeFile(file, `${garbage.join("\n")}\n`);
    const notJson = await runCli(evolve(), { cwd: dir });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/journal\.jsonl: line 3: is not valid JSON/);
  });

  it("a last line cut short by a kill mid-append: dropped with a warning, that stage runs again from the caches, same result", async () => {
    const { dir, file, lines } = await finishedRun();
    const last = lines[lines.length - 1];
    const stage = JSON.parse(last).stage as string;
    await writeFile(file, `${lines.slice(0, -1).join("\n")}\n${last.slice(0, last.length >> 1)}`);
    const resumed = await runCli(evolve(), { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(`line ${lines.length} was cut short .*dropped; that stage runs again`),
    );
    const after = (await readFile(file, "utf8")).trim().split("\n");
    // Every finished stage kept; the dropped one recorded once more, paying no rollout again.
    expect(after.slice(0, -1)).toEqual(lines.slice(0, -1));
    const redone = JSON.parse(after[after.length - 1]);
    expect(redone.stage).toBe(stage);
    expect(redone.spend.rollouts ?? 0).toBe(0);
    const result = await resultOf(dir);
    expect(work(result)).toEqual(work(reference));
    // The dropped stage was the measurement; what training spent is all still counted.
    expect((result.cost as { training: unknown }).training).toEqual(
      (reference.cost as { training: unknown }).training,
    );
  });

  it("a replayed stage output of the wrong shape is recomputed with a warning, not handed on", async () => {
    const { dir, file, lines } = await finishedRun();
    const index = lines.findIndex((line) => JSON.parse(line).stage === "iteration-1/batch");
    const entry = JSON.parse(lines[index]);
    entry.output.result.accuracy = "high";
    entry.output.records = "lost";
    const damaged = [...lines];
    damaged[index] = JSON.stringify(entry);
    await writeFile(file, `${damaged.join("\n")}\n`);
    const resumed = await runCli(evolve(), { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(
        `line ${index + 1}: the recorded output of stage 'iteration-1/batch' is not valid .*runs again`,
      ),
    );
    expect(await resultOf(dir)).toEqual(reference);
  });
});
