import { spawnSync } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../../src/cli/testing/run-cli.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import { type EndpointLedger, startEndpointLedger } from "./endpoint-ledger.js";
import { pythonAgentProject, pythonExample } from "./gateway-project.js";

// "Never end in silence": an agent that reads its key from a variable other than the one the
// config names (`model.apiKeyEnv`) sends the gateway no rollout token, so every call it makes is
// refused (401) and every rollout crashes. On the previous main `evolve` paid the refiner for
// four iterations of diagnosing crashes and exited 0 with nothing learned, and `eval` printed
// 0% and exited 0. Both now stop with exit 1 before any refiner call, naming the cause.

const python = spawnSync("python3", ["--version"]).status === 0;

describe.skipIf(!python)("an agent that reads another key variable than model.apiKeyEnv", () => {
  let ledger: EndpointLedger;
  let dir: string;
  let evolve: CliRun;
  let evaluated: CliRun;
  let search: CliRun;

  beforeAll(async () => {
    ledger = await startEndpointLedger({ world: join(pythonExample, "world.yaml") });
    // The example agent reads OPENAI_API_KEY; the config names OTHER_KEY.
    dir = await pythonAgentProject(ledger.url, (config) =>
      config.replace(
        "  model: sim-1\n  price:",
        "  model: sim-1\n  apiKeyEnv: OTHER_KEY\n  price:",
      ),
    );
    const env = { OTHER_KEY: "sk-test-other-key" };
    evolve = await runCli(["evolve", "--config", "ecdysis.yml", "--limit", "4", "--out", "evo"], {
      cwd: dir,
      env,
    });
    evaluated = await runCli(["eval", "--config", "ecdysis.yml", "--limit", "4", "--out", "ev"], {
      cwd: dir,
      env,
    });
    search = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--limit", "4", "--phase", "search", "--out", "s"],
      { cwd: dir, env },
    );
  }, 300_000);

  afterAll(async () => {
    await ledger?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("evolve stops as agent-unusable with exit 1, before any refiner call of an iteration", async () => {
    expect(evolve.code, evolve.stderr).toBe(1);
    expect(evolve.stderr).toMatch(/the agent crashed in every one of/);
    expect(evolve.stderr).toMatch(/model\.apiKeyEnv/);
    const result = JSON.parse(
      await readFile(join(dir, "evo", "result.json"), "utf8"),
    ) as EvolveResult;
    expect(result.stoppedBy).toBe("agent-unusable");
    expect(result.iterations.length).toBe(1);
    expect(result.iterations[0].refinement).toBeUndefined();
    expect(ledger.billed().calls).toBe(0);
  });

  it("eval exits 1 and names the cause: no rollout reached the model", () => {
    expect(evaluated.code, evaluated.stderr).toBe(1);
    expect(evaluated.stderr).toMatch(/the agent crashed in every one of/);
    expect(evaluated.stderr).toMatch(/model\.apiKeyEnv/);
  });

  it("the search phase of a matrix run stops the same way, exit 1 (it said 'search done')", () => {
    expect(search.code, search.stderr).toBe(1);
    expect(search.stderr).toMatch(/the agent crashed in every one of/);
    expect(search.stdout).not.toMatch(/search done/);
  });
});
