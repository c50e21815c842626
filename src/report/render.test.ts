import { beforeAll, describe, expect, it } from "vitest";
import { compareGate } from "../evolve/gate-result.js";
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
import { parseMetadataBlock, renderPrBody } from "./pr-body.js";
import { renderHtml } from "./render-html.js";
import { renderMarkdown } from "./render-markdown.js";
import { scrubSecrets } from "./scrub.js";
import { acceptedSentence, stopSentence } from "./wording.js";

let result: EvolveResult;

beforeAll(async () => {
  const loaded = await fakeProject({
    train: [
      ...specs({ prefix: "c", count: 6, fault: "calc" }),
      ...specs({ prefix: "n", count: 4 }),
    ],
    heldout: [
      ...specs({ prefix: "h", count: 4, fault: "calc" }),
      ...specs({ prefix: "hn", count: 2 }),
    ],
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

function hostile(): EvolveResult {
  const copy = structuredClone(result);
  const pattern = copy.iterations[0].diagnosis?.patterns[0];
  if (!pattern) throw new Error("fixture has no pattern");
  pattern.name = '<script>alert("x")</script> | ``` sk-abcdefghijklmnop1234';
  copy.iterations[0].traces[0].output =
    "<img src=x onerror=alert(1)> ghp_abcdefghijklmnopqrstuvwxyz012345";
  return copy;
}

describe("reports", () => {
  it("escapes untrusted text in HTML, links patterns to their traces, and scrubs secrets", () => {
    const html = renderHtml(hostile(), { secrets: ["hunter2-secret"] });
    // The one script is the report's own (allowed by hash in its CSP); the injected one is text.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain("<script>(function () {");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/sk-abcdefghijklmnop|ghp_abc/);
    const link = /href="#(rollout-[^"]+)"/.exec(html)?.[1];
    expect(link).toBeDefined();
    expect(html).toContain(`<details id="${link}"`);
  });

  it("renders Markdown with intervals, a Mermaid chart, and untrusted text kept out of the markup", () => {
    const markdown = renderMarkdown(hostile());
    expect(markdown).toContain("```mermaid\nxychart-beta");
    expect(markdown).toMatch(/\[\d+\.\d–\d+\.\d\] \(n=6\)/);
    expect(markdown).not.toContain("<script>");
    expect(markdown).toContain("\\|");
    expect(markdown).not.toContain("sk-abcdefghijklmnop");
  });

  it("shows each validation stage by its own name, outcome, figures and changes, and a follow-up as its own record", () => {
    const copy = structuredClone(result);
    const first = copy.iterations[0];
    const hash = first.candidateHash ?? "h";
    first.validation.push(
      {
        step: "re-drawn flips",
        role: "verdict",
        candidateHash: hash,
        draws: { pairs: 9, repeats: 0, fixed: 9, broken: 0, pValue: 0.002 },
        decision: { accepted: true, reason: "re-drawn" },
      },
      {
        step: "pruning",
        role: "note",
        changes: [
          {
            edits: [],
            patterns: ["gave-up-after-tool-error"],
            patternIds: ["p-tool"],
            kept: true,
            targets: 2,
            reason: "fixed none",
          },
        ],
        candidateHash: "h2",
        comparison: {
          n: 25,
          before: 12,
          after: 11,
          fixed: ["a"],
          broken: ["b", "c"],
          pValue: 0.875,
        },
        figures: { round: 1 },
        decision: {
          accepted: true,
          reason: "put back: without them cheap validation fixed 1, broke 2",
        },
      },
      {
        step: "ablation",
        role: "retry",
        changes: [
          {
            edits: [],
            patterns: ["calc"],
            fixed: 1,
            broken: 4,
            kept: false,
            reason: "alone it broke 4",
          },
          {
            edits: [],
            patterns: ["format"],
            fixed: 5,
            broken: 0,
            kept: true,
            reason: "alone it fixed 5",
          },
        ],
        decision: { accepted: true, reason: "without the changes that hurt alone" },
      },
      // A step no surface knows by name: shown all the same.
      {
        step: "toy double-check",
        role: "verdict",
        candidateHash: hash,
        figures: { power: 0.8 },
        decision: { accepted: true, reason: "the toy check agrees" },
      },
    );
    copy.iterations.splice(1, 0, {
      ...first,
      followUp: { n: 1, purpose: "repair what the rejected candidate broke or exposed" },
      validation: [],
      verdict: "rejected",
      reason: "no systematic pattern among what it broke or exposed",
    });
    const markdown = renderMarkdown(copy);
    expect(markdown).toContain(
      "- re-drawn flips (accepted): over 9 draws fixed 9, broken 0; p = 0.0020; re-drawn",
    );
    expect(markdown).toContain(
      "- pruning (noted): fixed 1, broken 2 of 25; p = 0.8750; round 1; put back: without them cheap validation fixed 1, broke 2",
    );
    expect(markdown).toContain("  - gave-up-after-tool-error: kept — fixed none");
    expect(markdown).toContain("  - calc: dropped (fixed 1, broken 4) — alone it broke 4");
    expect(markdown).toContain("  - format: kept (fixed 5, broken 0) — alone it fixed 5");
    expect(markdown).toContain("- toy double-check (accepted): power 0.8; the toy check agrees");
    expect(markdown).toContain(
      "### Iteration 1.1 (repair what the rejected candidate broke or exposed): rejected",
    );
    const html = renderHtml({ result: copy });
    expect(html).toContain("toy double-check");
    expect(html).toContain('id="candidate-1.1"');
  });

  it("lists every edit the Editor left out, with its reason, in the report and the PR body", () => {
    const copy = structuredClone(result);
    const refinement = copy.iterations[0].refinement;
    if (!refinement) throw new Error("fixture has no refinement");
    refinement.droppedEdits = [
      {
        change: 1,
        stage: "refused",
        reason: "would overwrite the edit of change 1 to 'system.md' (its text is not kept)",
        edit: { module: "prompt", edit: { kind: "write_file", file: "system.md", content: "x" } },
      },
      { change: 2, stage: "dropped", reason: "no usable Editor reply for this change", edit: null },
    ];
    const markdown = renderMarkdown(copy);
    const body = renderPrBody(copy, { maxBytes: 60_000 }).body;
    for (const text of [markdown, body]) {
      expect(text).toContain("Edits the Editor left out");
      expect(text).toMatch(
        /\| 1 \| refused \| 2 \| would overwrite the edit of change 1 to 'system\.md'/,
      );
      expect(text).toMatch(/\| 1 \| dropped \| 3 \| no usable Editor reply/);
    }
    const html = renderHtml(copy);
    expect(html).toContain("Edits the Editor left out");
    expect(html).toContain("would overwrite the edit of change 1");
  });

  it("shows the agent's and the refiner's spend apart in the cost section", () => {
    const priced = structuredClone(result);
    priced.cost = {
      ...priced.cost,
      llmCalls: 467,
      promptTokens: 125_928,
      completionTokens: 7_069,
      costUsd: 0.0231,
      refinement: { llmCalls: 44, tokens: 47_044, costUsd: 0.0081 },
    };
    const markdown = renderMarkdown(priced);
    expect(markdown).toContain(
      "Agent $0.0150 (423 calls, 85953 tokens) · refiner $0.0081 (44 calls, 47044 tokens).",
    );
  });

  it("keeps the PR body under the byte cap with a parseable metadata block", () => {
    const big = structuredClone(result);
    big.harness.patch = "+x\n".repeat(40_000);
    const { title, body } = renderPrBody(big, {
      maxBytes: 8_000,
      runId: "42",
      reportUrl: "https://example.test/run/42",
    });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(8_000);
    expect(body).toContain("## Summary");
    expect(body).toContain("full report](https://example.test/run/42)");
    expect(parseMetadataBlock(body)).toMatchObject({
      runId: "42",
      finalHash: result.harness.finalHash,
      gatePassed: result.gate.passed,
    });
    expect(title).toMatch(/held-out .* → 100\.0%/);
    const tiny = renderPrBody(big, { maxBytes: 1_200 });
    expect(Buffer.byteLength(tiny.body)).toBeLessThanOrEqual(1_200);
    expect(parseMetadataBlock(tiny.body)?.configHash).toBe(result.configHash);
  });

  it("an oversized section gives way first: the diff stays in the PR body", () => {
    const big = structuredClone(result);
    const iteration = big.iterations.find((entry) => (entry.diagnosis?.patterns.length ?? 0) > 0);
    if (!iteration?.diagnosis) throw new Error("fixture has no diagnosed iteration");
    const pattern = iteration.diagnosis.patterns[0];
    iteration.diagnosis.patterns = Array.from({ length: 3_000 }, (_, index) => ({
      ...pattern,
      id: `p${index}`,
      name: `${pattern.name} ${index}`,
    }));
    const { body } = renderPrBody(big, { maxBytes: 60_000 });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(60_000);
    expect(body).toMatch(
      /## Patterns\n\n_Omitted to keep this description under GitHub's size limit/,
    );
    expect(body).toContain(
      result.harness.patch.split("\n").find((line) => line.startsWith("+")) ?? "",
    );
    expect(body).toContain("## Harness diff\n");
    expect(body).not.toMatch(/## Diff\n\n_Omitted/);
  });

  it("renders the gate comment with its marker and flips grouped by category and signal", () => {
    const records = (pass: boolean[]) =>
      pass.map((ok, index) => ({
        key: `k${index}${ok}`,
        taskId: `t${index}`,
        category: index % 2 ? "odd" : "even",
        harnessHash: "h",
        model: "m",
        sampleIndex: 0,
        output: "",
        answer: null,
        verdict: { pass: ok, score: ok ? 1 : 0, reason: ok ? "pass" : "wrong-answer" },
        trace: {
          steps: [],
          events: [],
          output: "",
          answer: null,
          usage: { promptTokens: 10, completionTokens: 5, llmCalls: 1, costUsd: 0.001 },
          latencyMs: 0,
        },
        latencyMs: 0,
        cached: false,
      }));
    const evalOf = (pass: boolean[]) => ({
      result: {
        split: "heldout",
        harnessHash: "h",
        model: "m",
        accuracy: pass.filter(Boolean).length / pass.length,
        n: pass.length,
        interval: [0, 1] as [number, number],
        byCategory: {},
        tasks: pass.map((ok, index) => ({
          taskId: `t${index}`,
          category: index % 2 ? "odd" : "even",
          pass: ok,
          passes: ok ? 1 : 0,
          samples: 1,
          rolloutKeys: [],
        })),
        cost: {
          rollouts: 0,
          cachedRollouts: 0,
          llmCalls: 0,
          promptTokens: 0,
          completionTokens: 0,
          costUsd: 0,
          wallMs: 0,
        },
      },
      records: records(pass),
    });
    const gate = compareGate({
      base: evalOf([true, true, false, false]),
      head: evalOf([false, true, true, true]),
      gate: { tolerance: 0, requireImprovement: true, statusContext: "ecdysis/heldout" },
    });
    expect(gate.verdict).toBe("pass");
    expect(gate.comparison.fixed).toEqual(["t2", "t3"]);
    expect(gate.comparison.broken).toEqual(["t0"]);
    const worse = compareGate({
      base: evalOf([true, true, true, false]),
      head: evalOf([true, false, true, false]),
      gate: { tolerance: 0.2, requireImprovement: true, statusContext: "c" },
    });
    expect(worse.verdict).toBe("fail");
    const comment = renderGateComment(gate);
    // The hidden marker belongs to src/github (one per harness), not to the rendered text.
    expect(comment.startsWith("## Ecdysis held-out gate")).toBe(true);
    expect(comment).toContain("| even | 1 | 1 |");
    expect(comment).toContain("| wrong-answer | 2 | 1 |");
    expect(renderJobSummary({ evolve: result, gate })).toContain("xychart-beta");
  });

  it("words patterns, p-values, accepted edits and the stop reason honestly on every surface", () => {
    const copy = structuredClone(result);
    const patterns = copy.iterations[0].diagnosis?.patterns ?? [];
    patterns.push({
      ...structuredClone(patterns[0]),
      id: "p-narrow",
      name: "narrow-one",
      kind: "model-specific",
      reasons: [{ code: "narrow", detail: "2 tasks (minimum 3)" }],
    });
    copy.gate.comparison.pValue = 0.000004;
    copy.run = {
      startedAt: "2030-01-02T03:00:00.000Z",
      finishedAt: "2030-01-02T03:04:05.000Z",
      ecdysisVersion: "0.1.0",
      git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: true },
    };
    const markdown = renderMarkdown(copy);
    const html = renderHtml(copy);
    const summary = renderJobSummary({ evolve: copy });
    const body = renderPrBody(copy).body;
    expect(markdown).toMatch(/\| narrow-one \| insufficient support \|/);
    expect(html).toContain(">insufficient support</td>");
    // As a reader sees it: entities decoded (Markdown cells and HTML escape `<`).
    const decode = (text: string) =>
      text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    for (const text of [markdown, html, summary, body].map(decode)) {
      expect(text).not.toContain("p = 0.0000");
      expect(text).toContain("p < 0.0001");
      expect(text).toContain(acceptedSentence(copy));
      expect(text).toContain(stopSentence(copy));
      expect(text).toContain(
        "Run: finished 2030-01-02 03:04 UTC · Ecdysis 0.1.0 · commit 0123456 (uncommitted changes).",
      );
      expect(text).not.toMatch(/\b1 (categories|tasks|iterations|rounds)\b|\(s\)/);
    }
  });

  it("scrubs credential-looking strings and given secret values", () => {
    expect(
      scrubSecrets(
        "key sk-proj-abcdefghijk and github_pat_11ABCDEFGHIJKLMNOPQRSTU and s3cr3tvalue",
        ["s3cr3tvalue"],
      ),
    ).toBe("key *** and *** and ***");
  });
});
