import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "../../src/cli/testing/run-cli.js";
import { waitFor } from "../reliability/project.js";
import { type EndpointLedger, type LedgerEntry, startEndpointLedger } from "./endpoint-ledger.js";
import { cutTasks, gatewayReplies, pythonAgentProject, pythonExample } from "./gateway-project.js";

// Issue #23: a killed and resumed evolve pays again for no agent call that had been answered,
// counted at the endpoint. After a number of the agent's calls the endpoint stops answering the
// calls that follow a tool result, so the kill lands with rollouts half done (an answered call
// behind each, one held in front); once the gateway has kept every answered call, the run is
// killed with SIGKILL and resumed. On the previous main the agent's calls were kept nowhere:
// every half-done rollout asked its answered calls again.

const python = spawnSync("python3", ["--version"]).status === 0;
const evolve = ["evolve", "--config", "ecdysis.yml", "--out", "out"];

describe.skipIf(!python)("a killed and resumed evolve of a command harness", () => {
  let ledger: EndpointLedger;
  let dir: string;
  let session1: LedgerEntry[];
  let session2: LedgerEntry[];
  let resumed: Awaited<ReturnType<typeof spawnCli>>;
  let heldAtKill: number;

  beforeAll(async () => {
    ledger = await startEndpointLedger({
      world: join(pythonExample, "world.yaml"),
      latencyScale: 0.1,
    });
    dir = await pythonAgentProject(ledger.url);
    await cutTasks(dir);
    const followsToolResult = (body: unknown) =>
      (body as { messages?: { role?: string }[] } | undefined)?.messages?.some(
        (message) => message.role === "tool",
      ) === true;
    ledger.holdAfter(24, followsToolResult);
    let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
    const killed = spawnCli(evolve, { cwd: dir, onStart: (started) => (child = started) });
    const answered = () =>
      ledger.entries.filter((entry) => entry.answered && !entry.preflight).length;
    const gatewayDir = join(dir, ".ecdysis", "cache", "gateway");
    // Rollouts half done in several slots, and every answered call kept by the gateway (with no
    // gateway keeping them, the rollouts half done is all there is to wait for).
    await waitFor(async () =>
      existsSync(gatewayDir)
        ? ledger.held() >= 4 && (await gatewayReplies(dir)) >= answered()
        : ledger.held() >= 4,
    );
    // Then nothing more is answered (a rollout starting meanwhile would get its first call
    // answered in the instant before the kill, not yet kept: a race of this test, not a repay),
    // and the kill waits until every call sent on was answered and kept by the gateway.
    ledger.holdAfter(0);
    await waitFor(async () =>
      existsSync(gatewayDir)
        ? ledger.inFlight() === 0 && (await gatewayReplies(dir)) >= answered()
        : ledger.inFlight() === 0,
    );
    heldAtKill = ledger.held();
    child?.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");
    session1 = [...ledger.entries];
    ledger.reset();
    resumed = await spawnCli(evolve, { cwd: dir });
    session2 = [...ledger.entries];
  }, 600_000);

  afterAll(async () => {
    await ledger?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("resumes to the end", () => {
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(heldAtKill).toBeGreaterThanOrEqual(4);
  });

  it("asks the endpoint again for none of the agent's calls it had answered", () => {
    const answered = new Set(
      session1
        .filter((entry) => entry.answered && entry.status === 200 && !entry.preflight)
        .map((entry) => entry.body),
    );
    const repaid = session2.filter((entry) => !entry.preflight && answered.has(entry.body));
    console.log(
      `kill with ${answered.size} agent calls answered and ${heldAtKill} held; after the resume ${session2.length} calls, ${repaid.length} of them asked again`,
    );
    expect(answered.size).toBeGreaterThanOrEqual(24);
    expect(repaid).toEqual([]);
  });
});
