import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "./main.js";
import { repoRoot, runCli } from "./testing/run-cli.js";

const cwd = tmpdir();

describe("ecdysis CLI", () => {
  it("prints general help and help for every command", async () => {
    const general = await runCli(["--help"], { cwd });
    expect(general.code).toBe(0);
    for (const command of commands) {
      expect(general.stdout).toContain(command.name);
      const help = await runCli([command.name, "--help"], { cwd });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: ecdysis ${command.name}`));
    }
    expect((await runCli([], { cwd })).code).toBe(2);
  });

  it("prints its version with --version and -V", async () => {
    const { version } = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    for (const flag of ["--version", "-V"]) {
      const run = await runCli([flag], { cwd });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`ecdysis ${version}\n`);
    }
    expect((await runCli(["--help"], { cwd })).stdout).toContain("--version");
  });

  it("rejects an unknown command and an unknown flag with exit 2 and one line", async () => {
    const unknown = await runCli(["evolv"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'evolv'");
    const flag = await runCli(["eval", "--config", "x.yml", "--out", "o", "--splt", "train"], {
      cwd,
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^error: ecdysis eval: .*--splt.*see 'ecdysis eval --help'/);
    expect(flag.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("names a missing required flag and a bad flag value", async () => {
    const missing = await runCli(["eval", "--config", "x.yml"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--out is required");
    const split = await runCli(["eval", "--config", "x.yml", "--out", "o", "--split", "test"], {
      cwd,
    });
    expect(split.stderr).toContain("'--split'");
    const shard = await runCli(["eval", "--config", "x.yml", "--out", "o", "--shard", "4/3"], {
      cwd,
    });
    expect(shard.stderr).toContain("shard 4/3");
  });

  it("reports an invalid config with file, line and field, exits 2 and writes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cli-"));
    await writeFile(
      join(dir, "ecdysis.yml"),
      "model:\n  provider: sim\n  model: sim-1\n  world: quickstart\nharness: {}\ntasks:\n  train: t.jsonl\n  heldout: h.jsonl\n  scorr: exact\n",
    );
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: ${join(dir, "ecdysis.yml")}: line 9: 'tasks.scorr': unknown key 'scorr' (check the spelling; unknown keys are not allowed)\n`,
    );
    expect(await readdir(dir)).toEqual(["ecdysis.yml"]);
  });

  it("reports a bad tasks file with its line before any model is opened", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cli-"));
    await writeFile(
      join(dir, "ecdysis.yml"),
      "model:\n  provider: openai\n  baseUrl: http://127.0.0.1:9/v1\n  model: m\n  apiKeyEnv: NOT_SET_KEY\nharness: {}\ntasks:\n  train: t.jsonl\n  heldout: h.jsonl\n",
    );
    await writeFile(
      join(dir, "t.jsonl"),
      '{"id":"a","input":"x","expected":1}\n{"id":"b","input":"y"}\n',
    );
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: ${join(dir, "t.jsonl")}: line 2: 'expected': 'expected' is required\n`,
    );
    expect(await readdir(dir)).not.toContain("out");
  });

  it("writes the JSON schemas", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-cli-"));
    const run = await runCli(["schema", "--out", "schemas"], { cwd: dir });
    expect(run.code).toBe(0);
    expect((await readdir(join(dir, "schemas"))).sort()).toEqual([
      "command-output.schema.json",
      "ecdysis.schema.json",
      "harness.schema.json",
    ]);
  });
});
