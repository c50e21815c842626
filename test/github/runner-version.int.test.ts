import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { node24, runAction } from "./action-runner.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);

describe("the Action checks the Node its runner started it on (dist/index.js)", () => {
  it.skipIf(nodeMajor >= 24)(
    "a runner that starts it on Node 20 gets one line naming the minimum runner, before anything runs",
    async () => {
      const run = await runAction({
        entry: { kind: "dist" },
        workspace: mkdtempSync(join(tmpdir(), "ecdysis-old-runner-")),
        apiUrl: "http://127.0.0.1:9",
        inputs: { mode: "eval", config: "ecdysis.yml" },
        env: { RUNNER_ENVIRONMENT: "self-hosted" },
      });
      expect(run.code).not.toBe(0);
      const errors = run.stdout.split("\n").filter((line) => line.startsWith("::error::"));
      expect(errors).toEqual([
        `::error::runner: 'runs-on': Ecdysis runs on node24 (GitHub Actions runner 2.327.1 or later), but this runner started it on Node ${process.version}: update the runner (self-hosted and GHES runners too) and do not force an older Node with ACTIONS_RUNNER_FORCE_ACTIONS_NODE_VERSION`,
      ]);
      expect(run.summary).toContain("2.327.1");
    },
  );

  it("under Node 24 on a runner it goes on (and fails here only for the missing config)", async () => {
    const run = await runAction({
      entry: { kind: "dist", node: node24 },
      workspace: mkdtempSync(join(tmpdir(), "ecdysis-new-runner-")),
      apiUrl: "http://127.0.0.1:9",
      inputs: { mode: "eval", config: "ecdysis.yml" },
      env: { RUNNER_ENVIRONMENT: "github-hosted" },
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).not.toContain("runs on node24");
    expect(run.stdout).toMatch(/::error::.*ecdysis\.yml/);
  });
});
