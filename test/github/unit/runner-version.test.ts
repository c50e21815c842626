import { describe, expect, it } from "vitest";
import { runtimeProblem } from "../../../src/github/runner-version.js";

describe("runtimeProblem", () => {
  it("on a runner, a Node older than the declared node24 is one line naming the minimum runner", () => {
    const problem = runtimeProblem({
      nodeVersion: "v20.19.2",
      env: { RUNNER_ENVIRONMENT: "self-hosted" },
    });
    expect(problem?.message).toBe(
      "runner: 'runs-on': Ecdysis runs on node24 (GitHub Actions runner 2.327.1 or later), but this runner started it on Node v20.19.2: update the runner (self-hosted and GHES runners too) and do not force an older Node with ACTIONS_RUNNER_FORCE_ACTIONS_NODE_VERSION",
    );
    expect(problem?.message).not.toContain("\n");
  });

  it("Node 24 or later on a runner, and any Node off a runner (local-action, node dist/index.js), are fine", () => {
    expect(
      runtimeProblem({ nodeVersion: "v24.1.0", env: { RUNNER_ENVIRONMENT: "github-hosted" } }),
    ).toBeUndefined();
    expect(
      runtimeProblem({ nodeVersion: "v25.0.0", env: { RUNNER_ENVIRONMENT: "github-hosted" } }),
    ).toBeUndefined();
    expect(runtimeProblem({ nodeVersion: "v20.19.2", env: {} })).toBeUndefined();
  });
});
