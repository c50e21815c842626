import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelConfigSchema } from "../config/config-schema.js";
import { loadTasks } from "../config/load-tasks.js";
import { harnessHash } from "../harness/hash.js";
import type { LoadedHarness } from "../harness/types.js";
import { openHarnessWorkspace } from "../harness/workspace.js";
import { createProvider, withAccounting } from "../llm/index.js";
import { generateWorldFiles, loadWorld, type SimServer, startSimServer } from "../sim/index.js";
import { commandAgent } from "./command-agent.js";
import { testTask } from "./testing/in-memory-harness.js";

/** The user's own agent, in a child process, reaching the same model the run uses. */
const userAgent = `
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {
  const task = JSON.parse(input);
  const reply = await fetch(process.env.ECDYSIS_BASE_URL + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer unused" },
    body: JSON.stringify({
      model: process.env.ECDYSIS_MODEL,
      messages: [
        { role: "system", content: "End your reply with a final line of the form 'Answer: <value>'." },
        { role: "user", content: task.input },
      ],
    }),
  }).then((response) => response.json());
  process.stdout.write(JSON.stringify({ output: reply.choices[0].message.content }));
});`;

describe("command harness against the sim", () => {
  let server: SimServer;
  let dir: string;
  beforeAll(async () => {
    server = await startSimServer({ world: await loadWorld("quickstart"), latencyScale: 0 });
    dir = await mkdtemp(join(tmpdir(), "ecdysis-command-int-"));
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("tells the command where the run's model is, through every provider wrapper", async () => {
    const config = modelConfigSchema.parse({
      provider: "openai",
      baseUrl: server.url,
      model: "sim-1",
    });
    const provider = withAccounting(createProvider({ config, baseUrl: server.url, apiKey: "k" }));
    const command = [process.execPath, "-e", userAgent];
    const harness: LoadedHarness = {
      kind: "command",
      dir,
      files: {},
      command,
      hash: harnessHash({ kind: "command", files: {}, command }),
    };
    const files = await generateWorldFiles({
      world: await loadWorld("quickstart"),
      outDir: join(dir, "world"),
    });
    const task = (await loadTasks(files.train)).find(
      (candidate) => candidate.category === "date-reasoning",
    );
    if (!task) throw new Error("the quickstart world has no date-reasoning task");
    const before = server.requests();
    const trace = await commandAgent({
      timeoutMs: 20_000,
      projectRoot: dir,
      workspace: openHarnessWorkspace({ parent: join(dir, "workspace") }),
    }).run({
      task: testTask(task.input),
      harness,
      provider,
      sampleIndex: 0,
    });
    expect(trace.events).toEqual([]);
    expect(server.requests() - before).toBe(1);
    expect(trace.output).toMatch(/Answer: /);
    expect(trace.answer).not.toBeNull();
  });
});
