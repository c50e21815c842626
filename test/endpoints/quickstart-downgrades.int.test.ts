import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../../src/cli/testing/run-cli.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import { loadWorld, type SimServer, startSimServer } from "../../src/sim/index.js";
import type { Quirk } from "../../src/sim/world-schema.js";

// Issue #14's "must show": `ecdysis evolve` on examples/quickstart against a loopback server
// that rejects json_schema, tools and max_tokens at once (and temperature 0, as reasoning models
// do) completes, lists the steps it took in the summary and the report, and reaches the held-out
// accuracy of the same run against the plain sim.

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function evolveAgainst(quirks: Quirk[]) {
  const server = await startSimServer({
    world: await loadWorld("quickstart"),
    latencyScale: 0,
    quirks,
  });
  servers.push(server);
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-downgrades-"));
  await cp(join(repoRoot, "examples", "quickstart"), dir, { recursive: true });
  const config = (await readFile(join(dir, "ecdysis.yml"), "utf8")).replace(
    /model:\n {2}provider: sim.*\n.*\n.*\n/,
    `model:\n  provider: openai\n  baseUrl: ${server.url}\n  model: sim-1\n`,
  );
  expect(config).toContain(server.url);
  await writeFile(join(dir, "ecdysis.yml"), config);
  const run = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "out"], { cwd: dir });
  const result = JSON.parse(
    await readFile(join(dir, "out", "result.json"), "utf8"),
  ) as EvolveResult;
  const report = await readFile(join(dir, "out", "report.md"), "utf8");
  return { run, result, report, server };
}

let plainRun: ReturnType<typeof evolveAgainst> | undefined;
/** The run against the plain sim, made once and shared by the comparisons. */
const plainEvolve = () => {
  plainRun ??= evolveAgainst([]);
  return plainRun;
};

describe("ecdysis evolve on the quickstart against a server that cannot do everything", () => {
  it("Gemini refusing seed (an array error body): seed is dropped once, the run reaches the clean endpoint's figures", async () => {
    const plain = await plainEvolve();
    const gemini = await evolveAgainst(["rejects-seed"]);
    expect(gemini.run.code).toBe(0);
    expect(gemini.result.endpoints?.downgrades).toMatchObject([
      { parameter: "seed", from: "sent", to: "omitted" },
    ]);
    expect(gemini.run.stdout).toContain("seed: sent → omitted");
    expect(gemini.report).toContain(`Unknown name "seed"`);
    expect(gemini.result.baseline.heldout.accuracy).toBe(plain.result.baseline.heldout.accuracy);
    expect(gemini.result.final.heldout.accuracy).toBe(plain.result.final.heldout.accuracy);
    expect(gemini.result.final.train?.accuracy).toBe(plain.result.final.train?.accuracy);
    expect(gemini.result.acceptedEdits).toEqual(plain.result.acceptedEdits);
  }, 240_000);

  it("completes, reports every step it took, and reaches the plain sim's held-out accuracy", async () => {
    const plain = await plainEvolve();
    const limited = await evolveAgainst([
      "rejects-json-schema",
      "rejects-tools",
      "reasoning-model",
    ]);
    expect(plain.run.code).toBe(0);
    expect(limited.run.code).toBe(0);
    expect(plain.result.endpoints).toBeUndefined();
    expect(plain.run.stdout).not.toContain("stepped down");

    const steps = (limited.result.endpoints?.downgrades ?? []).map(
      (step) => `${step.parameter}: ${step.from} → ${step.to}`,
    );
    expect(steps.sort()).toEqual([
      "max_tokens: max_tokens → max_completion_tokens",
      "response_format: json_schema → json_object",
      "temperature: sent → omitted",
      "tools: native → text",
    ]);
    for (const step of steps) {
      expect(limited.run.stdout).toContain(step);
      expect(limited.report).toContain(step);
    }
    expect(limited.report).toContain("sim-1 does not support tools");

    expect(limited.result.final.heldout.accuracy).toBe(plain.result.final.heldout.accuracy);
    expect(limited.result.baseline.heldout.accuracy).toBe(plain.result.baseline.heldout.accuracy);
    expect(limited.result.final.heldout.accuracy).toBeGreaterThan(
      limited.result.baseline.heldout.accuracy,
    );
    // The same proposals were accepted: the text protocol and JSON mode changed no decision.
    expect(limited.result.acceptedEdits).toEqual(plain.result.acceptedEdits);
  }, 240_000);
});
