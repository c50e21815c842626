import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "../../src/cli/testing/run-cli.js";
import { readEvolveResult } from "../../src/evolve/result-schema.js";
import {
  type CallLedger,
  type LedgerEntry,
  ledgerEnv,
  startCallLedger,
  useEndpoint,
} from "./call-ledger.js";
import { comparable, quickstartProject, waitFor } from "./project.js";

// Issue #10's reliability matrix: real SIGKILLs at several points of an `evolve` (the CLI as a
// child process talking HTTP to the endpoint), then a resume into the same folder. The resume
// takes over the dead run's lock, pays again for no call the killed run had been answered, and
// ends with the result an uninterrupted run gives.

const evolve = ["evolve", "--config", "ecdysis.yml", "--out", "out"];
let ledger: CallLedger;
let reference: Record<string, unknown>;
let referenceCalls: Set<string>;

const work = (result: unknown) => {
  const { cost: _cost, ...rest } = comparable(result) as Record<string, unknown>;
  return rest;
};
const journalLines = (dir: string) => {
  const file = join(dir, "out", "journal.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
};

/** Replies in the project's call cache: the calls a process finished. */
async function cachedCalls(dir: string): Promise<number> {
  const root = join(dir, ".ecdysis", "cache", "calls");
  if (!existsSync(root)) return 0;
  const files = await readdir(root, { recursive: true, withFileTypes: true });
  return files.filter((file) => file.isFile() && !file.name.endsWith(".tmp")).length;
}

beforeAll(async () => {
  // Latency, so a kill lands while calls are in flight.
  ledger = await startCallLedger({ latencyScale: 0.1 });
  const dir = await quickstartProject();
  await useEndpoint(dir, ledger.url);
  const run = await spawnCli(evolve, { cwd: dir, env: ledgerEnv });
  expect(run.code, run.stderr).toBe(0);
  reference = work(await readEvolveResult(join(dir, "out", "result.json")));
  referenceCalls = new Set(ledger.entries.map((entry) => entry.body));
}, 240_000);

afterAll(async () => {
  await ledger?.close();
});

describe("kill -9 mid-run, then resume", () => {
  // Journal lines written when the kill lands: after the first batch, mid-iteration, late.
  // `between`: the test kills the process once the journal holds that many lines. `append`: the
  // process kills itself (SIGKILL) halfway through writing that journal line — the failpoint
  // ECDYSIS_FAILPOINT_JOURNAL_APPEND — so the kill lands during a journal append for real.
  it.each([
    [2, "between"],
    [9, "between"],
    [18, "between"],
    [9, "append"],
  ] as const)(
    "killed at journal line %i (%s): the resume redoes no finished work and ends with the same result",
    async (lines, when) => {
      const dir = await quickstartProject();
      await useEndpoint(dir, ledger.url);
      ledger.reset();
      let child: { kill(signal: NodeJS.Signals): boolean; pid?: number } | undefined;
      const killed = spawnCli(evolve, {
        cwd: dir,
        env:
          when === "append"
            ? { ...ledgerEnv, ECDYSIS_FAILPOINT_JOURNAL_APPEND: String(lines) }
            : ledgerEnv,
        onStart: (started) => {
          child = started;
        },
      });
      if (when === "between") {
        await waitFor(() => journalLines(dir).length >= lines);
        child?.kill("SIGKILL");
      }
      const first = await killed;
      expect(first.signal).toBe("SIGKILL");
      const before = journalLines(dir);
      if (when === "append") {
        // The line the kill cut short is on disk, not JSON, and the last one.
        expect(before).toHaveLength(lines);
        expect(before.at(-1)?.endsWith("}")).toBe(false);
      }
      const session1: LedgerEntry[] = [...ledger.entries];
      const cachedCalls1 = await cachedCalls(dir);
      ledger.reset();

      const resumed = await spawnCli(evolve, { cwd: dir, env: ledgerEnv });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(
        new RegExp(
          `took over the output folder's lock of .*\\(pid ${child?.pid}, .*no longer running`,
        ),
      );
      const session2: LedgerEntry[] = [...ledger.entries];
      if (when === "append")
        expect(resumed.stderr).toMatch(
          `line ${lines} was cut short (the run was killed while writing it)`,
        );

      // The same result as the uninterrupted run.
      expect(work(await readEvolveResult(join(dir, "out", "result.json")))).toEqual(reference);
      // Every finished stage kept as it was, none recorded twice.
      const after = (await readFile(join(dir, "out", "journal.jsonl"), "utf8")).split("\n");
      const whole = before.filter((line) => line.endsWith("}"));
      expect(after.slice(0, whole.length)).toEqual(whole);
      const stages = after
        .filter(Boolean)
        .slice(1)
        .map((line) => JSON.parse(line).stage);
      expect(new Set(stages).size).toBe(stages.length);
      // No call the killed run had finished is paid again (the call cache has it). A call is
      // finished once its reply is in the cache: the endpoint may have answered calls the killed
      // process never recorded (answered, not cached), and those alone may be asked again — as
      // may the calls in flight at the kill and the endpoint check every start makes. Nothing is
      // asked that an uninterrupted run does not ask.
      const answered = session1.filter((entry) => entry.answered && !entry.preflight);
      const unrecorded = answered.length - cachedCalls1;
      const inFlight = session1.filter((entry) => !entry.answered).length;
      const answeredBodies = new Set(answered.map((entry) => entry.body));
      const repaid = session2.filter((entry) => answeredBodies.has(entry.body));
      expect(repaid.length).toBeLessThanOrEqual(Math.max(0, unrecorded));
      for (const entry of [...session1, ...session2]) expect(referenceCalls).toContain(entry.body);
      expect(session1.length + session2.length).toBeLessThanOrEqual(
        referenceCalls.size + inFlight + Math.max(0, unrecorded) + 1,
      );
      console.log(
        `sigkill at ${lines} journal lines (${when}): ${session1.length} calls before the kill (${inFlight} in flight, ${Math.max(0, unrecorded)} answered but not recorded), ${session2.length} after; uninterrupted run ${referenceCalls.size}; asked again ${repaid.length}`,
      );
    },
    240_000,
  );
});
