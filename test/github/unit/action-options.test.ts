import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { InputError } from "../../../src/errors/input-error.js";
import { inputNames, parseActionOptions } from "../../../src/github/action-options.js";
import { repoRoot } from "../action-runner.js";

const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? "";

describe("parseActionOptions", () => {
  it("turns the raw input strings into typed options with defaults", () => {
    const options = parseActionOptions(
      inputs({
        labels: "a, b\nc",
        reviewers: "octocat,org/team",
        draft: "TRUE",
        "budget-rollouts": "200",
        "budget-cost-usd": "2.5",
        strategy: "iterative",
      }),
    );
    expect(options).toMatchObject({
      mode: "evolve",
      config: "ecdysis.yml",
      labels: ["a", "b", "c"],
      reviewers: ["octocat", "org/team"],
      draft: true,
      "dry-run": false,
      "budget-rollouts": 200,
      "budget-cost-usd": 2.5,
      strategy: "iterative",
    });
    expect(options["base-url"]).toBeUndefined();
  });

  it("names the input and the problem for a bad value", () => {
    expect(() => parseActionOptions(inputs({ mode: "train" }))).toThrow(InputError);
    expect(() => parseActionOptions(inputs({ "max-iterations": "0" }))).toThrow(/'max-iterations'/);
    expect(() => parseActionOptions(inputs({ "base-url": "not a url" }))).toThrow(/'base-url'/);
    expect(() => parseActionOptions(inputs({ draft: "yes" }))).toThrow(/'draft'/);
  });

  it("phase, shard and concurrency: a measure job names its shard; the phases are evolve's", () => {
    const measure = parseActionOptions(
      inputs({ phase: "measure", shard: "2/4", concurrency: "16" }),
    );
    expect(measure).toMatchObject({
      phase: "measure",
      shard: { index: 1, count: 4 },
      concurrency: 16,
      "run-dir": ".ecdysis/evolve-run",
    });
    expect(parseActionOptions(inputs({})).phase).toBe("all");
    expect(() => parseActionOptions(inputs({ phase: "measure" }))).toThrow(/'shard'.*needs/);
    expect(() => parseActionOptions(inputs({ phase: "measure", shard: "5/4" }))).toThrow(
      /'shard'.*outside/,
    );
    expect(() => parseActionOptions(inputs({ phase: "measure", shard: "two" }))).toThrow(/'shard'/);
    expect(() => parseActionOptions(inputs({ phase: "search", shard: "1/4" }))).toThrow(/'shard'/);
    expect(() => parseActionOptions(inputs({ mode: "gate", phase: "finish" }))).toThrow(/'phase'/);
    expect(() => parseActionOptions(inputs({ concurrency: "0" }))).toThrow(/'concurrency'/);
  });

  it("action.yml declares exactly the inputs the entry reads, and documents every one", () => {
    const action = parse(readFileSync(join(repoRoot, "action.yml"), "utf8"));
    expect(Object.keys(action.inputs).sort()).toEqual([...inputNames].sort());
    for (const input of Object.values(action.inputs) as { description?: string }[])
      expect(input.description).toBeTruthy();
    expect(action.runs).toEqual({ using: "node24", main: "dist/index.js" });
    expect(Object.keys(action.outputs)).toEqual(
      expect.arrayContaining([
        "pull-request-operation",
        "pull-request-number",
        "pull-request-url",
        "branch",
        "baseline-heldout-accuracy",
        "final-heldout-accuracy",
        "report-path",
        "gate-verdict",
      ]),
    );
  });
});
