import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./testing/run-cli.js";

/**
 * The first thing a new user runs: `ecdysis init` on the quickstart world, then `ecdysis evolve`
 * with the defaults. init's seed already states the answer format, so what is left are fixes
 * that only pay together (a hint after tool errors is masked by the step budget; the calculator
 * exposes malformed tool calls): the method has to find them and reach a held-out gain.
 */
describe("ecdysis init → ecdysis evolve on the quickstart world", () => {
  it("reaches a held-out gain with the defaults", async () => {
    const project = await mkdtemp(join(tmpdir(), "ecdysis-init-evolve-"));
    const init = await runCli(["init", ".", "--world", "quickstart"], { cwd: project });
    expect(init.code, init.stderr).toBe(0);
    const evolve = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "out"], {
      cwd: project,
    });
    expect(evolve.code, evolve.stderr).toBe(0);
    const result = JSON.parse(await readFile(join(project, "out", "result.json"), "utf8")) as {
      baseline: { heldout: { accuracy: number } };
      final: { heldout: { accuracy: number } };
    };
    expect(result.final.heldout.accuracy).toBeGreaterThan(result.baseline.heldout.accuracy);
  }, 240_000);
});
