import { access, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, spawnCli } from "./testing/run-cli.js";

describe("ecdysis sim", () => {
  it("serves an OpenAI-compatible endpoint until interrupted", async () => {
    let models: unknown;
    const run = await spawnCli(["sim", "serve", "--world", "quickstart", "--port", "0"], {
      cwd: tmpdir(),
      onStart: (child) => {
        let seen = "";
        child.stdout?.on("data", async (chunk) => {
          seen += chunk;
          const url = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(seen)?.[1];
          if (!url || models) return;
          models = await fetch(`${url}/models`).then((response) => response.json());
          child.kill("SIGINT");
        });
      },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("sim stopped after");
    expect(JSON.stringify(models)).toContain("sim-1");
  });

  it("generates a world's files with a seed, and rejects an unknown subcommand", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-sim-world-"));
    const run = await runCli(
      ["sim", "world", "--world", "quickstart", "--seed", "7", "--out", "w"],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    for (const file of ["tasks/train.jsonl", "tasks/heldout.jsonl", "harness/harness.yaml"]) {
      await access(join(dir, "w", file));
    }
    // The ground truth is the bench's alone: a generated project never holds it.
    await expect(access(join(dir, "w", "ground-truth.json"))).rejects.toThrow();
    const bad = await runCli(["sim", "start"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("expected 'serve' or 'world'");
  });
});
