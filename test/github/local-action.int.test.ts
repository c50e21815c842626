import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./action-runner.js";
import { quickstartFiles } from "./quickstart-repo.js";

const localAction = join(repoRoot, "node_modules", ".bin", "local-action");

/**
 * docs/action.md's "Running by hand": `npx @github/local-action . src/github/main.ts .env`, with
 * local-action itself (7.0.1), which stands in for `@actions/core`, `@actions/cache` and
 * `@actions/artifact` with its own modules. Eval mode on the quickstart.
 */
describe("@github/local-action runs the Action by hand", () => {
  it("eval on the quickstart sets its outputs; the missing cache and artifact services only warn", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "ecdysis-local-action-"));
    for (const [path, content] of Object.entries(quickstartFiles())) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), content);
    }
    const envFile = join(workspace, ".env");
    writeFileSync(
      envFile,
      [
        "INPUT_MODE=eval",
        "INPUT_CONFIG=ecdysis.yml",
        `GITHUB_WORKSPACE=${workspace}`,
        "GITHUB_REPOSITORY=me/agent",
        `RUNNER_TEMP=${join(workspace, ".runner")}`,
        "",
      ].join("\n"),
    );
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>(
      (resolve, reject) =>
        execFile(
          localAction,
          [".", "src/github/main.ts", envFile],
          {
            cwd: repoRoot,
            env: { PATH: process.env.PATH, HOME: process.env.HOME },
            maxBuffer: 1 << 24,
          },
          (error, out, err) =>
            error
              ? reject(new Error(`${error.message}\n${out}\n${err}`))
              : resolve({ stdout: out, stderr: err }),
        ),
    );
    expect(stderr + stdout).not.toContain("::error::");
    const run = stdout.slice(stdout.indexOf("Running Action"));
    expect(run).toMatch(/::warning::cache restore failed: LOCAL_ACTION_WORKSPACE must be set/);
    expect(run).toContain("::warning::artifact service not available");
    const outputs = run.slice(run.indexOf("Action Outputs"));
    expect(outputs).toMatch(/'final-heldout-accuracy'\s*│\s*'0\.\d{4}'/);
    expect(outputs).toContain("'report-path'");
  });
});
