import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandAgent } from "../agent/command-agent.js";
import { promptFileAgentScript } from "../agent/testing/prompt-file-agent.js";
import { modelConfigSchema } from "../config/config-schema.js";
import { loadTasks } from "../config/load-tasks.js";
import type { Task } from "../config/task-schema.js";
import { diagnoseBatch } from "../diagnose/index.js";
import { evaluate, scorerForTasks } from "../eval/index.js";
import { applyEdits, loadHarness, openHarnessWorkspace, writeHarness } from "../harness/index.js";
import type { LoadedHarness } from "../harness/types.js";
import { type AccountedProvider, createProvider } from "../llm/index.js";
import { generateWorldFiles, type SimServer, startSimServer, worldSchema } from "../sim/index.js";
import { refine } from "./refine.js";

const worldFor = (style: "tidy" | "plainspoken") =>
  worldSchema.parse({
    name: `command-${style}`,
    seed: 23,
    families: [
      { kind: "date-reasoning", counts: { train: 10, heldout: 4 } },
      { kind: "extraction", counts: { train: 10, heldout: 4 } },
    ],
    deficiencies: { systematic: { "format-drift": 0.6 } },
    refiner: { style, schemaSlips: style === "plainspoken" ? 0.5 : 0 },
  });

/**
 * The command-harness path of refinement against the sim over HTTP: the roles see the agent's
 * editable prompt file, the sim's Editor edits it with replace_text, and the edited agent — run
 * from its own folder — does better.
 */
describe.each(["tidy", "plainspoken"] as const)(
  "refine a command harness against the sim (%s)",
  (style) => {
    let server: SimServer;
    let dir: string;
    let provider: AccountedProvider;
    let tasks: Task[];
    let harness: LoadedHarness;

    beforeAll(async () => {
      const world = worldFor(style);
      server = await startSimServer({ world, latencyScale: 0 });
      dir = await mkdtemp(join(tmpdir(), "ecdysis-refine-command-"));
      tasks = await loadTasks(
        (await generateWorldFiles({ world, outDir: join(dir, "world") })).train,
      );
      const seedDir = join(dir, "seed");
      for (const [file, text] of Object.entries({
        "agent.js": promptFileAgentScript,
        "prompts/system.md": "You are a careful assistant.\nSolve the user's task.\n",
      })) {
        await mkdir(dirname(join(seedDir, file)), { recursive: true });
        await writeFile(join(seedDir, file), text);
      }
      harness = await loadHarness({
        dir: seedDir,
        kind: "command",
        command: [process.execPath, "agent.js"],
      });
      const config = modelConfigSchema.parse({
        provider: "openai",
        baseUrl: server.url,
        model: "sim-1",
      });
      provider = createProvider({ config, baseUrl: server.url, apiKey: "test-key" });
    });
    afterAll(async () => {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const run = (candidate: LoadedHarness) =>
      evaluate({
        tasks,
        harness: candidate,
        provider,
        adapter: commandAgent({
          timeoutMs: 20_000,
          projectRoot: dir,
          workspace: openHarnessWorkspace({ parent: join(dir, "workspace") }),
        }),
        scorer: scorerForTasks({ kind: "exact" }, { root: dir }),
        concurrency: 4,
        split: "train",
      });

    it("edits the editable prompt file with replace_text and raises accuracy", async () => {
      const before = await run(harness);
      const report = await diagnoseBatch({
        records: before.records,
        tasks,
        refiner: provider,
        minSupport: { tasks: 3, categories: 1 },
      });
      const record = await refine({
        patterns: report.patterns,
        harness,
        refiner: provider,
        rejected: [],
        skepticRounds: 1,
        editable: ["prompts/*.md"],
      });
      expect(record.outcome).toBe("accepted");
      expect(record.edits.map((edit) => [edit.module, edit.edit.kind])).toContainEqual([
        "command",
        "replace_text",
      ]);
      expect(record.droppedEdits).toEqual([]);
      const applied = applyEdits({
        harness,
        edits: record.edits,
        guard: {
          editable: ["prompts/*.md"],
          protectedPaths: [],
          forbiddenStrings: tasks.map((task) => String(task.expected)),
          forbiddenInputs: tasks.map((task) => task.input),
        },
      });
      expect(applied.rejected).toEqual([]);
      const candidateDir = join(dir, "candidate");
      await mkdir(candidateDir, { recursive: true });
      await writeHarness({ ...harness, dir: candidateDir }, candidateDir);
      await writeHarness(applied.harness, candidateDir);
      const candidate = await loadHarness({
        dir: candidateDir,
        kind: "command",
        command: harness.command,
      });
      expect(candidate.files["prompts/system.md"]).toContain("Answer: <value>");
      const after = await run(candidate);
      expect(after.result.accuracy).toBeGreaterThan(before.result.accuracy + 0.2);
    });
  },
);
