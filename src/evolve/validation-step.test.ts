import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toEvolveOutcome } from "../bench/from-evolve-result.js";
import { renderHtml } from "../report/render-html.js";
import { renderMarkdown } from "../report/render-markdown.js";
import { decide } from "./acceptance.js";
import { passMapOf, scoreOf } from "./records.js";
import { readEvolveResult } from "./result-schema.js";
import type { RunContext } from "./run-context.js";
import { runEvolve } from "./run-evolve.js";
import type { IterationScope } from "./run-scope.js";
import { stageSchemas } from "./stage-schemas.js";
import { ecdysisStrategy } from "./strategies/ecdysis.js";
import type { CandidateProposal, Strategy } from "./strategy.js";
import { fakeStages } from "./testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "./testing/fake-world.js";
import type { ValidationResult, ValidationStage } from "./validation.js";

// Issue #26's "must show": a new validation step added by touching at most two files. The toy
// step below is the whole of it — written here, in one file, and added to Ecdysis's validation
// by wrapping the strategy's `validate` (in the code base it would be its own file and one call
// in strategies/ecdysis-validate.ts). Nothing else learns its name: `decide`, the loop, the
// memory of rejections, result.json, the reports and the bench read it by its role.

/**
 * The toy step, "second look": after a verdict accepted a candidate, it runs the candidate once
 * more on the batch (a journal stage of the iteration's own; the rollout cache makes it free)
 * and keeps the acceptance only when the batch accuracy reaches `bar`. A verdict of its own.
 */
async function secondLook(options: {
  context: RunContext;
  scope: IterationScope;
  proposal: CandidateProposal;
  validation: ValidationResult;
  bar: number;
}): Promise<ValidationResult> {
  const { context, scope, proposal, validation, bar } = options;
  const verdict = decide(validation.stages);
  if (!verdict.accepted) return validation;
  const candidate = validation.candidates.get(verdict.candidateHash);
  if (!candidate) return validation;
  const tasks = proposal.seen.batch.tasks;
  const run = await scope.stage(
    "second-look",
    () => context.evaluate({ tasks, harness: candidate.harness, label: "second look" }),
    stageSchemas.evaluation,
  );
  const score = scoreOf(run.result);
  const passes = [...passMapOf(run.result).values()].filter(Boolean).length;
  const stage: ValidationStage = {
    step: "second look",
    role: "verdict",
    candidateHash: verdict.candidateHash,
    score,
    figures: { bar, passes },
    decision:
      score.accuracy >= bar
        ? { accepted: true, reason: `second look: ${passes} pass, at or above the bar ${bar}` }
        : {
            accepted: false,
            reason: `second look: accuracy ${score.accuracy} below the bar ${bar}`,
          },
  };
  return { ...validation, stages: [...validation.stages, stage] };
}

/** Ecdysis with the toy step after its own validation. */
function withSecondLook(bar: number): Strategy {
  const ecdysis = ecdysisStrategy();
  return {
    ...ecdysis,
    open(context, strategyScope) {
      const run = ecdysis.open(context, strategyScope);
      return {
        ...run,
        validate: async (proposal, state, scope) => {
          const validation = await run.validate(proposal, state, scope);
          return secondLook({ context, scope, proposal, validation, bar });
        },
      };
    },
  };
}

async function evolveWith(bar: number) {
  const loaded = await fakeProject({
    train: [
      ...specs({ prefix: "c", count: 6, fault: "calc" }),
      ...specs({ prefix: "n", count: 4 }),
    ],
    heldout: specs({ prefix: "h", count: 4, fault: "calc" }),
    evolve: { maxIterations: 1 },
  });
  const outDir = `${loaded.root}/out`;
  const result = await runEvolve({
    loaded,
    strategy: withSecondLook(bar),
    outDir,
    models: { agent: fakeAgentModel(), refiner: fakeRefinerModel() },
    stages: fakeStages().stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => 0 },
  });
  return { result, outDir };
}

describe("a new validation step, added in one file", () => {
  it("decides by its role: a veto by the new step rejects, remembered like any rejection", async () => {
    const { result, outDir } = await evolveWith(1.01);
    const [first] = result.iterations;
    expect(
      first.validation.map((stage) => [stage.step, stage.role, stage.decision.accepted]),
    ).toEqual([
      ["cheap validation", "screen", true],
      ["full batch", "verdict", true],
      ["second look", "verdict", false],
    ]);
    expect(first.verdict).toBe("rejected");
    expect(first.reason).toBe("second look: accuracy 1 below the bar 1.01");
    expect(result.harness.finalHash).toBe(result.harness.seedHash);
    expect(result.rejectedProposals.map((proposal) => proposal.reason)).toContain(first.reason);
    // Its journal stage is the iteration's own.
    const journal = await readFile(path.join(outDir, "journal.jsonl"), "utf8");
    expect(journal).toContain('"stage":"iteration-1/second-look"');
  });

  it("passes through result.json, the reports and the bench as it is", async () => {
    const { result, outDir } = await evolveWith(0.5);
    const [first] = result.iterations;
    expect(first.verdict).toBe("accepted");
    expect(first.reason).toBe("second look: 10 pass, at or above the bar 0.5");
    const read = await readEvolveResult(path.join(outDir, "result.json"));
    expect(read.iterations[0].validation.at(-1)).toMatchObject({
      step: "second look",
      figures: { bar: 0.5, passes: 10 },
    });
    expect(renderMarkdown(read)).toContain(
      "- second look (accepted): 100.0% [72.2–100.0] (n=10); bar 0.5; passes 10; second look: 10 pass, at or above the bar 0.5",
    );
    expect(renderHtml({ result: read })).toContain("<strong>second look</strong>");
    const outcome = toEvolveOutcome(read);
    expect(outcome.inForce.at(-1)?.harnessHash).toBe(read.harness.finalHash);
    expect(outcome.acceptedEdits).toHaveLength(1);
  });
});
