import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseHarnessYaml } from "../config/harness-yaml.js";
import { taskSchema } from "../config/task-schema.js";
import { InputError } from "../errors/input-error.js";
import { bundledWorlds, listWorldFiles, loadWorld } from "./load-world.js";
import { generateWorldFiles } from "./world-files.js";
import { generateWorldWithTruth } from "./world-generator.js";

describe("world files", () => {
  it("bundles eight valid worlds, including a neutral one", async () => {
    expect(bundledWorlds()).toEqual([
      "quickstart",
      "systematic",
      "noisy",
      "sparse",
      "neutral",
      "plainspoken",
      "model-noise",
      "mediocre-refiner",
    ]);
    expect(await listWorldFiles()).toEqual(
      bundledWorlds()
        .map((name) => `${name}.yaml`)
        .sort(),
    );
    for (const name of bundledWorlds()) expect((await loadWorld(name)).name).toBe(name);
    expect((await loadWorld("neutral")).refiner.neutral).toBe(true);
    expect((await loadWorld("quickstart")).refiner.neutral).toBe(false);
    expect((await loadWorld("quickstart")).refiner.style).toBe("tidy");
    const plain = await loadWorld("plainspoken");
    expect(plain.refiner).toMatchObject({ style: "plainspoken" });
    expect(plain.refiner.schemaSlips).toBeGreaterThan(0);
    expect(plain.refiner.mergeRecall).toBeLessThan(1);
    expect(plain.deficiencies.modelSpecific.promptSensitivity).toBeGreaterThan(0);
    // Issue #27: heavy model-specific noise, and a mediocre refiner.
    const noise = (await loadWorld("model-noise")).deficiencies.modelSpecific;
    expect(noise.itemSlip + noise.flaky + noise.promptSensitivity).toBeGreaterThan(0.4);
    const mediocre = (await loadWorld("mediocre-refiner")).refiner;
    expect(mediocre.accuracyAtMany).toBeLessThan(0.95);
  });

  it("writes tasks, the weak seed harness with its registry, and ground truth for the bench", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "sim-world-"));
    const paths = await generateWorldWithTruth({ world: await loadWorld("quickstart"), outDir });
    const train = (await readFile(paths.train, "utf8"))
      .trim()
      .split("\n")
      .map((line) => taskSchema.parse(JSON.parse(line)));
    expect(train).toHaveLength(40);
    const config = parseHarnessYaml(
      "harness.yaml",
      await readFile(join(paths.harnessDir, "harness.yaml"), "utf8"),
    );
    expect(config.tools.calculator.enabled).toBe(false);
    expect(config.tools.lookup.enabled).toBe(true);
    expect(config.agent_loop.max_steps).toBe(3);
    expect(config.completion).toMatchObject({
      format_instruction: "",
      on_missing: "fail",
      answer_pattern: "Answer:\\s*(.+)",
    });
    expect(config.observation.on_error).toBe("show");
    expect(config.context).toEqual({ max_chars: 1600, overflow: "drop_oldest" });
    const system = await readFile(join(paths.harnessDir, "system.md"), "utf8");
    expect(system).not.toMatch(/Answer:|error|fail/i);
    expect(await readFile(join(paths.harnessDir, "rules.md"), "utf8")).toMatch(/^- /m);
    expect(await readFile(join(paths.harnessDir, "knowledge.md"), "utf8")).toMatch(
      /^## .+\n- kind: person\n- employer: /m,
    );
    const truth = JSON.parse(await readFile(paths.groundTruth, "utf8")) as {
      tasks: { id: string; keyPhrase: string }[];
    };
    expect(truth.tasks).toHaveLength(80);
    expect(truth.tasks.map((task) => task.id)).toContain(train[0].id);
  });

  it("writes no ground truth into a user project", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "sim-world-"));
    const paths = await generateWorldFiles({ world: await loadWorld("quickstart"), outDir });
    expect(Object.keys(paths).sort()).toEqual(["harnessDir", "heldout", "train"]);
    expect((await readdir(outDir)).sort()).toEqual(["harness", "tasks"]);
    const project = [
      ...(await readdir(join(outDir, "tasks"))),
      ...(await readdir(paths.harnessDir)),
    ];
    expect(project.filter((name) => /truth|world/i.test(name))).toEqual([]);
  });

  it("reports a bad world file with file, line and field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sim-bad-"));
    const file = join(dir, "bad.yaml");
    await writeFile(
      file,
      "name: bad\nseed: 1\nfamilies:\n  - kind: riddles\n    counts: { train: 1, heldout: 1 }\ndeficiencies: {}\n",
    );
    const error = await loadWorld(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toEqual({ line: 4, field: "families[0].kind" });
    await writeFile(file, "name: bad\nseed: 1\nfamilies: []\ndeficiencies: {}\nextra: 1\n");
    expect(
      ((await loadWorld(file).catch((caught: unknown) => caught)) as InputError).message,
    ).toMatch(/bad\.yaml/);
    await expect(loadWorld(join(dir, "missing.yaml"))).rejects.toThrow(
      /bundled worlds: quickstart/,
    );
  });
});
