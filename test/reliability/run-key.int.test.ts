import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing/run-cli.js";
import { readEvolveResult } from "../../src/evolve/result-schema.js";
import { editTasks, initProject } from "./project.js";

// Issue #10 item 2: a resume replays only work of the same inputs. The journal is keyed by the
// seed harness, the task files, the config, the models and the sim's world and behaviour, the
// scorer, --limit and the Ecdysis version; a resume of other inputs is refused with what changed
// and the way out (--restart, or a fresh --out).

const evolve = (...extra: string[]) => [
  "evolve",
  "--config",
  "ecdysis.yml",
  "--out",
  "out",
  "--limit",
  "4",
  ...extra,
];

describe("a resume of other inputs is refused, naming what changed", () => {
  it("held-out expectations set to WRONG: refused; --restart re-measures under the new tasks", async () => {
    const dir = await initProject();
    const first = await runCli(evolve(), { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const before = await readEvolveResult(join(dir, "out", "result.json"));
    expect(before.baseline.heldout.accuracy).toBeGreaterThan(0);

    await editTasks(join(dir, "tasks", "heldout.jsonl"), (task) => ({
      ...task,
      expected: "WRONG",
    }));
    const refused = await runCli(evolve(), { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /journal\.jsonl: line 1: .*changed since it started: the held-out tasks \(/,
    );
    expect(refused.stderr).toMatch(/--restart.*fresh --out/);
    expect(refused.stderr).not.toMatch(/unexpected error/);
    // Nothing of the refused run was written: the earlier result stands.
    expect(await readEvolveResult(join(dir, "out", "result.json"))).toEqual(before);

    const restarted = await runCli(evolve("--restart"), { cwd: dir });
    expect(restarted.code, restarted.stderr).toBe(0);
    const after = await readEvolveResult(join(dir, "out", "result.json"));
    expect(after.baseline.heldout.accuracy).toBe(0);
    expect(after.final.heldout.accuracy).toBe(0);
    // Train rollouts came from the cache: only the held-out scoring changed.
    expect(after.baseline.train).toEqual(before.baseline.train);
  });

  it("an edited seed harness, or another --limit: refused, naming that part", async () => {
    const dir = await initProject();
    expect((await runCli(evolve(), { cwd: dir })).code).toBe(0);
    await appendFile(join(dir, "harness", "rules.md"), "- Double-check every figure.\n");
    const seedChanged = await runCli(evolve(), { cwd: dir });
    expect(seedChanged.code).toBe(2);
    expect(seedChanged.stderr).toMatch(
      /changed since it started: the seed harness \([0-9a-f]{12} → [0-9a-f]{12}\)\./,
    );
    const journal = await readFile(join(dir, "out", "journal.jsonl"), "utf8");
    expect(journal.split("\n").length).toBeGreaterThan(2);
    const limitChanged = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--out", "out", "--limit", "3"],
      { cwd: dir },
    );
    expect(limitChanged.stderr).toMatch(/the seed harness .*--limit \(4 → 3\)/);
    // --resume and --restart contradict each other.
    const both = await runCli(evolve("--resume", "--restart"), { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--resume and --restart exclude each other/);
  });
});
