import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { loadConfig } from "./load-config.js";

const valid = `# project config
model:
  provider: sim
  model: sim-1
  world: ../worlds/quickstart.yaml
harness:
  dir: harness
tasks:
  train: tasks/train.jsonl
  heldout: tasks/heldout.jsonl
concurrency: 4
`;

async function writeConfig(text: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-config-"));
  const path = join(dir, "ecdysis.yml");
  await writeFile(path, text);
  return { dir, path };
}

async function inputError(path: string): Promise<InputError> {
  const error = await loadConfig(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe("loadConfig", () => {
  it("applies defaults and resolves relative paths against the config folder", async () => {
    const { dir, path } = await writeConfig(valid);
    const loaded = await loadConfig(path);
    expect(loaded.root).toBe(dir);
    expect(loaded.config.harness.dir).toBe(join(dir, "harness"));
    expect(loaded.config.tasks.train).toBe(join(dir, "tasks/train.jsonl"));
    expect(loaded.config.model.world).toBe(join(dir, "../worlds/quickstart.yaml"));
    expect(loaded.config.cacheDir).toBe(join(dir, ".ecdysis/cache"));
    expect(loaded.config.tasks.scorer).toEqual({ kind: "exact" });
    expect(loaded.config.concurrency).toBe(4);
    expect(loaded.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps a bundled world name as a name", async () => {
    const { path } = await writeConfig(valid.replace("../worlds/quickstart.yaml", "quickstart"));
    expect((await loadConfig(path)).config.model.world).toBe("quickstart");
  });

  it("names the file, line and field of an unknown bundled world", async () => {
    const { path } = await writeConfig(valid.replace("../worlds/quickstart.yaml", "quikstart"));
    const error = await inputError(path);
    expect(error.file).toBe(path);
    expect(error.location).toEqual({ line: 5, field: "model.world" });
    expect(error.message).toContain("unknown world 'quikstart'");
    expect(error.message).toContain("quickstart");
  });

  it("hashes the meaning, not the formatting or the folder", async () => {
    const first = await loadConfig((await writeConfig(valid)).path);
    const reordered = valid
      .replace("concurrency: 4\n", "")
      .replace("model:\n", "concurrency: 4\nmodel:\n");
    const second = await loadConfig((await writeConfig(reordered)).path);
    const third = await loadConfig(
      (await writeConfig(valid.replace("concurrency: 4", "concurrency: 5"))).path,
    );
    expect(second.hash).toBe(first.hash);
    expect(third.hash).not.toBe(first.hash);
  });

  it("names file, line and field of an unknown key, and writes nothing", async () => {
    const { dir, path } = await writeConfig(
      valid.replace("  dir: harness\n", "  dir: harness\n  edtiable: ['*.md']\n"),
    );
    const error = await inputError(path);
    expect(error.file).toBe(path);
    expect(error.location).toEqual({ line: 8, field: "harness.edtiable" });
    expect(error.message).toContain("unknown key 'edtiable'");
    expect(error.exitCode).toBe(2);
    expect(await readdir(dir)).toEqual(["ecdysis.yml"]);
  });

  it("names the line of a value of the wrong type", async () => {
    const error = await inputError(
      (await writeConfig(valid.replace("concurrency: 4", "concurrency: many"))).path,
    );
    expect(error.location).toEqual({ line: 11, field: "concurrency" });
    expect(error.message).toMatch(/expected number/);
  });

  it("reports a missing model name on the model section's line", async () => {
    const error = await inputError((await writeConfig(valid.replace("  model: sim-1\n", ""))).path);
    expect(error.location).toEqual({ line: 2, field: "model.model" });
    expect(error.message).toContain("'model.model' is required");
  });

  it("reports a missing world for the sim provider", async () => {
    const error = await inputError(
      (await writeConfig(valid.replace("  world: ../worlds/quickstart.yaml\n", ""))).path,
    );
    expect(error.location.field).toBe("model.world");
    expect(error.message).toContain("'world' is required when provider is 'sim'");
  });

  it("names the new place of an evolve key that moved into its strategy's section", async () => {
    const moved = `${valid}evolve:\n  maxIterations: 3\n  batchSize: 24\n  iterativeMinibatch: 5\n`;
    const error = await inputError((await writeConfig(moved)).path);
    expect(error.location).toEqual({ line: 14, field: "evolve.batchSize" });
    expect(error.message).toContain(
      "'evolve.batchSize' moved to 'evolve.ecdysis.batchSize' (each strategy's options have their own section)",
    );
    expect(error.message).toContain(
      "'evolve.iterativeMinibatch' moved to 'evolve.iterative.minibatch'",
    );
    const placed = `${valid}evolve:\n  ecdysis:\n    batchSize: 24\n  iterative:\n    minibatch: 5\n`;
    const { config } = await loadConfig((await writeConfig(placed)).path);
    expect(config.evolve.ecdysis.batchSize).toBe(24);
    expect(config.evolve.ecdysis.alpha).toBe(0.1);
    expect(config.evolve.iterative).toEqual({
      minibatch: 5,
      components: "all",
      merge: true,
      maxMergeInvocations: 5,
      reflectionTemperature: 1,
    });
  });

  it("lists every problem, not only the first", async () => {
    const text = valid.replace("concurrency: 4", "concurrency: -1\nsamplez: 3");
    const error = await inputError((await writeConfig(text)).path);
    expect(error.message).toContain("concurrency");
    expect(error.message).toContain("samplez");
  });

  it("reports YAML syntax errors with a line", async () => {
    const error = await inputError(
      (await writeConfig("model:\n  provider: sim\n   bad: [\n")).path,
    );
    expect(error.message).toContain("invalid YAML");
    expect(error.location.line).toBeGreaterThanOrEqual(2);
  });

  it("rejects an empty file and a missing file", async () => {
    expect((await inputError((await writeConfig("")).path)).message).toContain("YAML mapping");
    expect((await inputError("/nonexistent/ecdysis.yml")).message).toContain("file not found");
  });
});
