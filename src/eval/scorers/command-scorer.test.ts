import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandScorer } from "./command-scorer.js";
import { answered, taskExpecting } from "./test-task.js";

describe("commandScorer", () => {
  it("passes task and output on stdin, never on the command line, and maps the exit code", async () => {
    const root = await mkdtemp(join(tmpdir(), "ecdysis-command-"));
    await writeFile(
      join(root, "check.mjs"),
      `import { writeFileSync } from "node:fs";\nlet s = "";\nprocess.stdin.on("data", (d) => (s += d)).on("end", () => {\n  writeFileSync("seen.json", s);\n  const p = JSON.parse(s);\n  process.exit(p.answer === String(p.task.expected) ? 0 : 3);\n});\n`,
    );
    const scorer = commandScorer({ command: "node check.mjs", timeoutMs: 10_000 }, { root });
    const hostile = "$(touch pwned); `touch pwned2`";
    const verdict = await scorer.score(
      taskExpecting(42, { input: hostile }),
      answered("42", "Answer: 42"),
    );
    expect(verdict).toEqual({ pass: true, score: 1, reason: "pass" });
    const seen = JSON.parse(await readFile(join(root, "seen.json"), "utf8"));
    expect(seen).toMatchObject({ task: { input: hostile }, output: "Answer: 42", answer: "42" });
    expect((await scorer.score(taskExpecting(42), answered("41"))).reason).toBe("wrong-answer");
    await expect(readFile(join(root, "pwned"))).rejects.toThrow();
  });

  it("reports a timeout as a scorer error", async () => {
    const root = await mkdtemp(join(tmpdir(), "ecdysis-command-"));
    const scorer = commandScorer({ command: "sleep 30", timeoutMs: 100 }, { root });
    expect((await scorer.score(taskExpecting(1), answered("1"))).reason).toBe("scorer-error");
  });
});
