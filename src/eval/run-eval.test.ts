import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { withAccounting } from "../llm/usage-accounting.js";
import { runEval } from "./run-eval.js";

describe("runEval", () => {
  it("runs a command harness with ECDYSIS_PROJECT_ROOT set to the project root (the config's folder), as evolve and gate do", async () => {
    const root = await mkdtemp(join(tmpdir(), "ecdysis-run-eval-command-"));
    await mkdir(join(root, "agent"), { recursive: true });
    await writeFile(
      join(root, "agent", "agent.js"),
      'process.stdin.resume();process.stdin.on("end",()=>process.stdout.write(JSON.stringify({output:"Answer: "+process.env.ECDYSIS_PROJECT_ROOT})));\n',
    );
    await writeFile(
      join(root, "train.jsonl"),
      `${JSON.stringify({ id: "t0", input: "where are you?", expected: root })}\n`,
    );
    await writeFile(
      join(root, "heldout.jsonl"),
      `${JSON.stringify({ id: "t1", input: "where?", expected: root })}\n`,
    );
    await writeFile(
      join(root, "ecdysis.yml"),
      [
        "model: { provider: openai, baseUrl: http://127.0.0.1:9/v1, model: m }",
        `harness: { kind: command, dir: agent, editable: [agent.js], command: [${JSON.stringify(process.execPath)}, agent.js] }`,
        "tasks: { train: train.jsonl, heldout: heldout.jsonl }",
        "",
      ].join("\n"),
    );
    const loaded = await loadConfig(join(root, "ecdysis.yml"));
    const model = withAccounting(new ScriptedProvider(() => undefined, "m"));
    const run = await runEval({
      loaded,
      split: "heldout",
      models: {
        agent: model,
        refiner: model,
        judge: model,
        downgrades: () => [],
        close: async () => {},
      },
    });
    expect(run.records[0].answer).toBe(root);
    expect(run.results["eval.json"].accuracy).toBe(1);
  });
});
