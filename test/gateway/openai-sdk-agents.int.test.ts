import { copyFile, cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../../src/cli/testing/run-cli.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import { cutTasks, pythonExample, scoredRollouts } from "./gateway-project.js";

// Issue #23: agents written with the official `openai` package — one streaming its chat
// completions, one on the Responses API with a function tool — evolve through the model gateway
// against the simulated model. They are the example's agent rewritten in Node (same prompt, tool
// and limits, the files the refiner may edit), and configure nothing: `new OpenAI()` reads
// OPENAI_API_KEY and OPENAI_BASE_URL, which Ecdysis sets to the rollout's token and the gateway.
// On the previous main the sim refused streaming and had no Responses API, and the SDK found no
// key (the embedded sim needs none), so neither agent could answer a single task.

const agents = join(repoRoot, "test", "gateway", "agents");

/** The example project with its agent replaced by `script` (a Node agent on the openai SDK). */
async function nodeAgentProject(script: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-sdk-agent-"));
  await cp(pythonExample, dir, { recursive: true, filter: (path) => !path.includes(".ecdysis") });
  await rm(join(dir, "agent", "agent.py"));
  await copyFile(join(agents, script), join(dir, "agent", "agent.mjs"));
  await copyFile(join(agents, "calculator.mjs"), join(dir, "agent", "calculator.mjs"));
  // The agent finds the project's `openai` package above its folder, as in a user's repository.
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  await cutTasks(dir);
  const file = join(dir, "ecdysis.yml");
  // The sandbox (evolve's candidates always run in it) mounts the project's node_modules, declared.
  const config = (await readFile(file, "utf8")).replace(
    "command: [python3, agent.py]",
    `command: [${JSON.stringify(process.execPath)}, agent.mjs]\n  sandbox: { mode: required, read: [node_modules] }`,
  );
  await writeFile(file, config);
  return dir;
}

describe.each([
  ["stream-agent.mjs", "streaming chat completions"],
  ["responses-agent.mjs", "the Responses API with a function tool"],
])("an agent on the openai SDK (%s: %s) evolves through the gateway", (script) => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  let result: EvolveResult;

  beforeAll(async () => {
    dir = await nodeAgentProject(script);
    run = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "out"], { cwd: dir });
    result = JSON.parse(await readFile(join(dir, "out", "result.json"), "utf8"));
  }, 600_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("raises its held-out accuracy by editing its own prompt", () => {
    expect(run.code, run.stderr).toBe(0);
    console.log(
      `${script}: held-out ${result.baseline.heldout.accuracy} -> ${result.final.heldout.accuracy}, ${result.cost.llmCalls - result.cost.refinement.llmCalls} agent calls`,
    );
    expect(result.final.heldout.accuracy).toBeGreaterThanOrEqual(
      result.baseline.heldout.accuracy + 0.3,
    );
    expect(result.harness.changedFiles.map((file) => file.path)).toContain("prompts/system.md");
  });

  it("reaches its model through the gateway only, which counts its spend", async () => {
    expect(result.cost.agentUsage).toMatchObject({ source: "gateway", selfReportedRollouts: 0 });
    const scored = await scoredRollouts(dir);
    expect(scored.every((record) => record.trace.usageSource === "gateway")).toBe(true);
    expect(scored.some((record) => record.trace.usage.llmCalls > 0)).toBe(true);
    if (script === "stream-agent.mjs") {
      // The agent read each reply as a stream of chunks (its own trace events say how many).
      const streamed = scored
        .flatMap((record) => record.trace.events)
        .filter((event) => event.detail?.startsWith("streamed"));
      expect(streamed.length).toBeGreaterThan(0);
      expect(
        streamed.every((event) => Number(/(\d+) chunks/.exec(event.detail ?? "")?.[1]) > 2),
      ).toBe(true);
    }
  });
});
