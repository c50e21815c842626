import { spawnSync } from "node:child_process";
import { access, cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { acceptedSentence, stopSentence } from "../report/wording.js";
import { repoRoot, runCli } from "./testing/run-cli.js";

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "ecdysis-evolve-cli-"));
  // init's seed states the answer format; on the small quickstart world what is left to fix
  // interlocks too tightly for the loop (see the plainspoken world for the realistic sim).
  expect((await runCli(["init", ".", "--world", "plainspoken"], { cwd: project })).code).toBe(0);
});

describe("ecdysis evolve and gate (on the sim)", () => {
  it("--resume without a previous run is refused and writes nothing", async () => {
    const run = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--out", "nothing", "--resume"],
      { cwd: project },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("nothing to resume");
    await expect(access(join(project, "nothing"))).rejects.toThrow();
  });

  it("--limit runs a quick subset as a run of its own; --concurrency is taken", async () => {
    const quick = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--out", "quick", "--limit", "6", "--concurrency", "2"],
      { cwd: project },
    );
    expect(quick.code, quick.stderr).toBe(0);
    const result = JSON.parse(await readFile(join(project, "quick", "result.json"), "utf8"));
    expect([result.baseline.train.n, result.baseline.heldout.n]).toEqual([6, 6]);
    expect(result.run.limit).toBe(6);
    const full = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "quick"], {
      cwd: project,
    });
    expect(full.code).toBe(2);
    expect(full.stderr).toContain("--limit (6 → none)");
  });

  it("evolves the init harness, and the gate passes the result and fails the reverse", async () => {
    const evolve = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "evo"], {
      cwd: project,
    });
    expect(evolve.stderr).not.toContain("error");
    expect(evolve.code).toBe(0);
    expect(evolve.stdout).toMatch(
      /^held-out: \d+\.\d% \[[\d.–]+\] → \d+\.\d% \[[\d.–]+\] \(n=\d+\)$/m,
    );
    expect(evolve.stdout).toMatch(
      /^held-out gate: passed — .*one-sided McNemar p [<=] 0\.\d{4}\)$/m,
    );
    expect(evolve.stdout).toMatch(
      /^cost: \$\d+\.\d+ — agent \$[\d.]+ \(\d+ calls, .* refiner \$[\d.]+ \(\d+ calls/m,
    );
    expect(evolve.stdout).toContain(`report: ${join(project, "evo", "report.html")}`);
    // Accepted edits name their module, change and pattern (by name, never by hash).
    const edits = evolve.stdout.split("accepted edits:\n")[1]?.split("\nheld-out gate")[0] ?? "";
    for (const line of edits.replace(/\n$/, "").split("\n"))
      expect(line).toMatch(
        /^ {2}(agent_loop|tools|observation|context|completion|prompt) +(set|add rule|remove rule|edit|write) .+ — [a-z][a-z-]*(, [a-z][a-z-]*)* \(iteration \d+\)$/,
      );
    expect(edits).not.toMatch(/\bp-[0-9a-f]{12}\b/);
    const result = JSON.parse(await readFile(join(project, "evo", "result.json"), "utf8"));
    expect(result.final.heldout.accuracy).toBeGreaterThan(result.baseline.heldout.accuracy);
    expect(await readFile(join(project, "evo", "report.md"), "utf8")).toContain("xychart-beta");
    expect(await readFile(join(project, "evo", "report.html"), "utf8")).toContain("<svg");
    expect(edits.trim().split("\n")).toHaveLength(result.acceptedEdits.length);
    const { version } = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    expect(result.run).toMatchObject({ ecdysisVersion: version });
    expect(Date.parse(result.run.startedAt)).toBeLessThanOrEqual(Date.parse(result.run.finishedAt));
    // The apply command runs as printed (here from the config folder: no repository).
    const apply = evolve.stdout
      .split(
        "apply the evolved harness (paths relative to the config folder; it is in no git repository):\n  ",
      )[1]
      ?.trim();
    expect(apply).toBe("git apply evo/harness.patch");
    const copy = await mkdtemp(join(tmpdir(), "ecdysis-apply-"));
    await cp(project, copy, { recursive: true });
    const applied = spawnSync("sh", ["-c", apply ?? "false"], { cwd: copy, encoding: "utf8" });
    expect(applied.status, applied.stderr).toBe(0);
    for (const name of ["harness.yaml", "rules.md", "system.md"])
      expect(await readFile(join(copy, "harness", name), "utf8")).toBe(
        await readFile(join(project, "evo", "harness", name), "utf8"),
      );
    // One count of accepted edits, one stop reason: the terminal and the report say the same.
    const report = await readFile(join(project, "evo", "report.md"), "utf8");
    for (const sentence of [acceptedSentence(result), stopSentence(result)]) {
      expect(evolve.stdout).toContain(sentence);
      expect(report).toContain(sentence);
    }
    const gate = await runCli(
      [
        "gate",
        "--config",
        "ecdysis.yml",
        "--base",
        "harness",
        "--head",
        "evo/harness",
        "--out",
        "gate",
      ],
      { cwd: project },
    );
    expect(gate.code).toBe(0);
    expect(gate.stdout).toMatch(/^gate passed/);
    expect(await readFile(join(project, "gate", "gate.md"), "utf8")).toMatch(
      /^## Ecdysis held-out gate/,
    );
    const reverse = await runCli(
      [
        "gate",
        "--config",
        "ecdysis.yml",
        "--base",
        "evo/harness",
        "--head",
        "harness",
        "--out",
        "gate-reverse",
      ],
      { cwd: project },
    );
    expect(reverse.code).toBe(1);
    expect(reverse.stdout).toMatch(/^gate failed/);
    // Re-running into the same folder resumes from the journal and ends with the same result.
    const again = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "evo", "--resume"], {
      cwd: project,
    });
    expect(again.code).toBe(0);
    const resumed = JSON.parse(await readFile(join(project, "evo", "result.json"), "utf8"));
    expect(resumed.final).toEqual(result.final);
  });
});
