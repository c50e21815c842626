import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "../../src/cli/testing/run-cli.js";
import { lockFileName } from "../../src/evolve/folder-lock.js";
import { type CallLedger, ledgerEnv, startCallLedger, useEndpoint } from "./call-ledger.js";
import { quickstartProject, waitFor } from "./project.js";

// Issue #10 item 5: two runs on one --out folder cannot both pay. The folder is locked (pid,
// host, start time) while a run holds it; a second run refuses naming the holder, before it
// calls anything or writes a line.

let ledger: CallLedger;

beforeAll(async () => {
  // Latency, so the first run is still going when the second one starts.
  ledger = await startCallLedger({ latencyScale: 0.1 });
});

afterAll(async () => {
  await ledger?.close();
});

const evolve = ["evolve", "--config", "ecdysis.yml", "--out", "out"];

describe("one run per output folder", () => {
  it("a second evolve on the same --out refuses naming the running one (exit 3); the first finishes alone", async () => {
    const dir = await quickstartProject();
    await useEndpoint(dir, ledger.url);
    let pid = 0;
    const first = spawnCli(evolve, {
      cwd: dir,
      env: ledgerEnv,
      onStart: (child) => {
        pid = child.pid ?? 0;
      },
    });
    // Running: its journal is written (after the lock is taken).
    await waitFor(() => existsSync(join(dir, "out", "journal.jsonl")));
    const second = await spawnCli(evolve, { cwd: dir, env: ledgerEnv });
    expect(second.code, second.stderr).toBe(3);
    expect(second.stderr).toMatch(
      new RegExp(
        `out: the output folder is in use by ecdysis evolve --out .*out \\(pid ${pid} on [^,]+, started \\d{4}-`,
      ),
    );
    expect(second.stderr).toMatch(/wait for that run to finish, or use another output folder/);
    expect(second.stderr).not.toMatch(/unexpected error/);
    const done = await first;
    expect(done.code, done.stderr).toBe(0);
    // The refused run journaled nothing: every stage is recorded once.
    const stages = (await readFile(join(dir, "out", "journal.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line).stage as string);
    expect(new Set(stages).size).toBe(stages.length);
    expect(existsSync(join(dir, "out", lockFileName))).toBe(false);
  });
});
