import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parse } from "yaml";
import type { ActionEngine, ConfigFacts } from "../../src/github/action-engine.js";

/** What the fake engine is told to do, passed as JSON in `ECDYSIS_FAKE_CORE`. */
export interface FakeScenario {
  /** Files (relative to the harness folder) the "evolution" writes over the seed harness. */
  edits?: Record<string, string>;
  runId?: string;
  /** Text planted in the report and a trace (to check it is scrubbed). */
  plant?: string;
  /** The gate throws this message instead of answering (an engine or endpoint failure). */
  gateThrows?: string;
}

interface FakeConfig {
  harness?: { dir?: string };
  tasks: { heldout: string };
  gate?: { statusContext?: string; tolerance?: number };
}

function readConfig(configPath: string): { config: FakeConfig; root: string } {
  return {
    config: parse(readFileSync(configPath, "utf8")) as FakeConfig,
    root: dirname(configPath),
  };
}

function harnessText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n")
    .toLowerCase();
}

/**
 * The "model" of the fake: a held-out task passes when its expected answer appears in the
 * harness files. Deterministic, and it reads real files — the tasks of the config it is given,
 * the harness folder it is given — so the Action's choice of files decides the verdict.
 */
export function fakeAccuracy(options: { configPath: string; harnessDir: string }): number {
  const { config, root } = readConfig(options.configPath);
  const tasks = readFileSync(resolve(root, config.tasks.heldout), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { expected: string });
  const text = harnessText(options.harnessDir);
  return (
    tasks.filter((task) => text.includes(task.expected.toLowerCase())).length /
    Math.max(1, tasks.length)
  );
}

/** sha256 and mode of every file under `dir` (what the gate was handed, byte for byte). */
function fileDigests(dir: string): Record<string, { sha256: string; mode: number }> {
  const digests: Record<string, { sha256: string; mode: number }> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    digests[relative(dir, file)] = {
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
      mode: statSync(file).mode & 0o777,
    };
  }
  return digests;
}

function hashFolder(dir: string): string {
  return createHash("sha256").update(harnessText(dir)).digest("hex");
}

function writeReport(outDir: string, title: string, plant: string | undefined): string {
  mkdirSync(join(outDir, "traces"), { recursive: true });
  writeFileSync(join(outDir, "report.md"), `# ${title}\n${plant ?? ""}\n`);
  writeFileSync(join(outDir, "traces", "t1.json"), JSON.stringify({ note: plant ?? "" }));
  return join(outDir, "report.md");
}

/** An ActionEngine over real files without any model: for the Action's own tests. */
export function fakeCore(scenario: FakeScenario): ActionEngine {
  const describe = async ({ configPath }: { configPath: string }): Promise<ConfigFacts> => {
    const { config, root } = readConfig(configPath);
    const harnessDir = resolve(root, config.harness?.dir ?? "harness");
    return {
      harnessDir,
      cacheDir: join(root, ".ecdysis", "cache"),
      configHash: createHash("sha256").update(readFileSync(configPath)).digest("hex"),
      harnessHash: hashFolder(harnessDir),
      taskFiles: [config.tasks.heldout].map((file) => resolve(root, file)),
      statusContext: config.gate?.statusContext ?? "ecdysis/heldout",
    };
  };
  return {
    describe,
    async evolve({ configPath, outDir }) {
      const facts = await describe({ configPath });
      const evolved = join(outDir, "harness");
      mkdirSync(evolved, { recursive: true });
      cpSync(facts.harnessDir, evolved, { recursive: true });
      for (const [file, content] of Object.entries(scenario.edits ?? {})) {
        mkdirSync(dirname(join(evolved, file)), { recursive: true });
        writeFileSync(join(evolved, file), content);
      }
      const baseline = fakeAccuracy({ configPath, harnessDir: facts.harnessDir });
      const final = fakeAccuracy({ configPath, harnessDir: evolved });
      const runId = scenario.runId ?? "run-1";
      return {
        runId,
        baselineHeldoutAccuracy: baseline,
        finalHeldoutAccuracy: final,
        gatePassed: final > baseline,
        targetHarnessDir: facts.harnessDir,
        evolvedHarnessDir: evolved,
        reportPath: writeReport(outDir, "evolve", scenario.plant),
        statusContext: facts.statusContext,
        prTitle: "Ecdysis: harness improvement",
        prBody: `Held-out ${baseline} → ${final}\n\n<!-- ecdysis-metadata {"runId":"${runId}"} -->`,
        summaryMarkdown: `## Ecdysis evolve\n\nheld-out ${baseline} → ${final}`,
        outDir,
      };
    },
    async evolvePhase({ outDir, phase, shard }) {
      // Records the call in the run folder, as the real phases leave their files there.
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `phase-${phase}.json`), JSON.stringify({ phase, shard }));
      return { summaryMarkdown: `## Ecdysis evolve — ${phase}` };
    },
    async gate({ configPath, baseHarnessDir, headHarnessDir, headProjectRoot, outDir }) {
      if (scenario.gateThrows) throw new Error(scenario.gateThrows);
      const facts = await describe({ configPath });
      mkdirSync(outDir, { recursive: true });
      writeFileSync(
        join(outDir, "gate-inputs.json"),
        JSON.stringify({
          base: fileDigests(dirname(configPath)),
          head: fileDigests(headHarnessDir),
          headHarnessDir,
          headProjectRoot: headProjectRoot ? fileDigests(headProjectRoot) : undefined,
        }),
      );
      const { config } = readConfig(configPath);
      const base = fakeAccuracy({ configPath, harnessDir: baseHarnessDir });
      const head = fakeAccuracy({ configPath, harnessDir: headHarnessDir });
      const tolerance = config.gate?.tolerance ?? 0;
      const verdict = head + tolerance >= base ? "pass" : "fail";
      return {
        verdict,
        baseAccuracy: base,
        headAccuracy: head,
        description: `held-out ${base.toFixed(2)} → ${head.toFixed(2)}: ${verdict}`,
        statusContext: facts.statusContext,
        commentBody: `### Held-out gate: ${verdict}\n\nbase ${base} → head ${head}`,
        summaryMarkdown: `## Ecdysis gate\n\n${verdict}`,
        reportPath: writeReport(outDir, "gate", scenario.plant),
        outDir,
      };
    },
    async eval({ configPath, outDir }) {
      const facts = await describe({ configPath });
      const accuracy = fakeAccuracy({ configPath, harnessDir: facts.harnessDir });
      return {
        accuracy,
        n: 4,
        summaryMarkdown: "## Ecdysis eval",
        reportPath: writeReport(outDir, "eval", scenario.plant),
        outDir,
      };
    },
  };
}

/** The scenario from the environment (the test seam of `fake-core-entry.ts`). */
export function scenarioFromEnv(env: NodeJS.ProcessEnv = process.env): FakeScenario {
  const raw = env.ECDYSIS_FAKE_CORE;
  if (!raw) throw new Error("ECDYSIS_FAKE_CORE is not set");
  return JSON.parse(raw) as FakeScenario;
}
