import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandScorer } from "./command-scorer.js";
import { ScorerError } from "./scorer-error.js";
import { answered, taskExpecting } from "./test-task.js";

describe("commandScorer", () => {
  it("passes task and output on stdin, never on the command line, and maps the exit code", async () => {
    const root = await mkdtemp(join(tmpdir(), "ecdysis-command-"));
    await writeFile(
      join(root, "check.mjs"),
      `import { writeFileSync } from "node:fs";\nlet s = "";\nprocess.stdin.on("data", (d) => (s += d)).on("end", () => {\n  writeFileSync("seen.json", s);\n  const p = JSON.parse(s);\n  process.exit(p.answer === String(p.task.expected) ? 0 : 1);\n});\n`,
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

  it.each([
    ["a timeout", "sleep 30", /no verdict within 100 ms/],
    ["a missing script", "python3 missing-score.py", /exit 2 .*stderr: .*missing-score\.py/],
    ["a command not found", "./score.sh", /exit 127 .*stderr: .*score\.sh/],
    ["a signal", "kill -9 $$", /killed by SIGKILL/],
    [
      "a crash (exit 1, a traceback, nothing on stdout)",
      "node -e 'JSON.parse(\"{\")'",
      /exit 1 with stderr and nothing on stdout.*stderr: .*SyntaxError/,
    ],
  ])(
    "%s is a scorer error naming what the command said, never a wrong answer",
    async (_name, command, said) => {
      const root = await mkdtemp(join(tmpdir(), "ecdysis-command-"));
      const timeout = command.startsWith("sleep") ? 100 : 10_000;
      const error = await commandScorer({ command, timeoutMs: timeout }, { root })
        .score(taskExpecting(1), answered("1"))
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(ScorerError);
      expect((error as Error).message).toMatch(said);
    },
  );

  it("exit 1 is a fail even with stderr, when the command said something on stdout", async () => {
    const root = await mkdtemp(join(tmpdir(), "ecdysis-command-"));
    const command = "echo fail; echo 'expected 1, got 2' >&2; exit 1";
    const scorer = commandScorer({ command, timeoutMs: 10_000 }, { root });
    expect((await scorer.score(taskExpecting(1), answered("2"))).reason).toBe("wrong-answer");
  });
});
