import { beforeAll, describe, expect, it } from "vitest";
import { sandboxOffWarning } from "../agent/sandbox/sandbox-policy.js";
import type { GateResult } from "../evolve/gate-result.js";
import type { EvolveResult } from "../evolve/result-schema.js";
import { runEvolve } from "../evolve/run-evolve.js";
import { ecdysisStrategy } from "../evolve/strategies/ecdysis.js";
import { fakeStages } from "../evolve/testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../evolve/testing/fake-world.js";
import { renderGateComment } from "./gate-comment.js";
import { renderJobSummary } from "./job-summary.js";
import { renderPrBody } from "./pr-body.js";
import { renderMarkdown } from "./render-markdown.js";

let result: EvolveResult;

beforeAll(async () => {
  const loaded = await fakeProject({
    train: specs({ prefix: "c", count: 4, fault: "calc" }),
    heldout: specs({ prefix: "h", count: 2, fault: "calc" }),
  });
  result = await runEvolve({
    loaded,
    strategy: ecdysisStrategy(),
    outDir: `${loaded.root}/out`,
    models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
    stages: fakeStages().stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => 0 },
  });
});

const unsandboxed = (): EvolveResult => ({
  ...result,
  sandbox: { mode: "off", engine: "none", warning: sandboxOffWarning },
  reaches: [{ file: "agent.py", kind: "processes", words: ["subprocess", "setsid"] }],
});

describe("the sandbox in the reports", () => {
  it("warns of unsandboxed agent code first in the report, the PR body and the job summary", () => {
    for (const text of [
      renderMarkdown(unsandboxed()),
      renderPrBody(unsandboxed()).body,
      renderJobSummary({ evolve: unsandboxed() }),
    ]) {
      expect(text).toContain("**Unsandboxed agent code.** harness.sandbox is off");
      expect(text.indexOf("Unsandboxed")).toBeLessThan(text.indexOf("Held-out"));
    }
    expect(renderMarkdown(result)).not.toContain("Unsandboxed");
  });

  it("lists what the code edits newly reach for in the report and the PR body", () => {
    for (const text of [renderMarkdown(unsandboxed()), renderPrBody(unsandboxed()).body]) {
      expect(text).toContain("## Code reach for the reviewer");
      expect(text).toContain("| `agent.py` | other processes | `subprocess`, `setsid` |");
    }
    expect(renderPrBody(result).body).not.toContain("Code reach");
  });

  it("shows the head's reach and an unsandboxed head in the gate comment", () => {
    const side = {
      harnessHash: "a",
      score: result.final.heldout,
      costPerTask: 0,
      tokensPerTask: 0,
    };
    const gate: GateResult = {
      verdict: "pass",
      passed: true,
      reason: "not worse (p = 1, not significant): head accuracy 0.5 ≥ base 0.5 − tolerance 0",
      evidence: "not-worse",
      statusContext: "ecdysis/heldout",
      tolerance: 0,
      base: side,
      head: { ...side, harnessHash: "b" },
      comparison: { n: 2, fixed: [], broken: [], pValue: 1 } as unknown as GateResult["comparison"],
      pWorse: 1,
      flips: { byCategory: [], bySignal: [] },
      sandbox: { mode: "off", engine: "none", warning: sandboxOffWarning },
      reaches: [{ file: "agent.js", kind: "network", words: ["node:net"] }],
    };
    const comment = renderGateComment(gate);
    expect(comment).toContain("Unsandboxed agent code");
    expect(comment).toContain("reach for more than the base did");
    expect(comment).toContain("| `agent.js` | the network | `node:net` |");
  });
});
