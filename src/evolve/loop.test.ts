import { describe, expect, it } from "vitest";
import { ecdysisConfigSchema } from "../config/config-schema.js";
import { BudgetExhaustedError } from "../errors/budget-error.js";
import type { EvalResult } from "../eval/types.js";
import type { LoadedHarness } from "../harness/types.js";
import { promising, significant } from "./acceptance.js";
import { runLoop } from "./loop.js";
import { comparePaired } from "./paired-test.js";
import type { RunContext } from "./run-context.js";
import { strategyScope } from "./run-scope.js";
import type { CandidateProposal, LoopState, Observation, StrategyRun } from "./strategy.js";

const harness = (hash: string): LoadedHarness => ({ kind: "builtin", dir: "/h", files: {}, hash });

const result: EvalResult = {
  split: "train",
  harnessHash: "seed",
  model: "m",
  n: 2,
  accuracy: 0.5,
  interval: [0.1, 0.9],
  tasks: [
    { taskId: "a", category: "x", samples: 1, passes: 0, pass: false },
    { taskId: "b", category: "x", samples: 1, passes: 1, pass: true },
  ],
  cost: { rollouts: 0, llmCalls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, wallMs: 0 },
} as unknown as EvalResult;

function context(options: { maxIterations?: number; exhausted?: () => boolean } = {}): RunContext {
  const config = ecdysisConfigSchema.parse({
    model: { provider: "sim", world: "quickstart", model: "m" },
    harness: {},
    tasks: { train: "t", heldout: "h" },
    evolve: { maxIterations: options.maxIterations ?? 3 },
  });
  return {
    config,
    elapsedMs: () => 42,
    exhausted: () => (options.exhausted?.() ? new BudgetExhaustedError("rollouts", 10) : undefined),
  } as unknown as RunContext;
}

/** A comparison with `fixed` tasks fixed and `broken` broken. */
function flips(fixed: number, broken: number) {
  const ids = [...Array(fixed + broken).keys()].map((index) => `t${index}`);
  return comparePaired(
    new Map(ids.map((id, index) => [id, index >= fixed])),
    new Map(ids.map((id, index) => [id, index < fixed])),
  );
}

/** The scopes a run hands its strategy: stages run as they are (no journal here). */
const scope = strategyScope({
  strategy: "scripted",
  streams: {},
  seed: 1,
  stage: (_name, run) => run(),
});

function seen(index: number, parent: LoadedHarness): Observation {
  return { index, parent, batch: { tasks: [], run: { result, records: [] } }, traces: [] };
}

/** A strategy whose proposal `index` is a candidate named `c<index>`, fixing `a` on the full batch when `good(index)`. */
function scripted(
  good: (index: number) => boolean,
  onPropose?: (index: number) => void,
): StrategyRun {
  return {
    start: async (seed) => ({ harness: seed, memory: [] }),
    async propose(state, { index }): Promise<CandidateProposal> {
      onPropose?.(index);
      const candidate = harness(`c${index}`);
      const refinement = {
        hms: null,
        outcome: "accepted",
      } as unknown as CandidateProposal["refinement"];
      return {
        kind: "candidate",
        seen: seen(index, state.harness),
        refinement,
        guarded: { applied: [], guardRejections: [], labelFlags: [], candidate },
        targets: [],
        data: undefined,
        candidate,
      };
    },
    async validate(proposal) {
      const hash = proposal.candidate.hash;
      const comparison = good(proposal.seen.index) ? flips(5, 0) : flips(0, 1);
      return {
        stages: [
          {
            step: "cheap",
            role: "screen",
            candidateHash: hash,
            comparison,
            decision: promising(comparison),
          },
          {
            step: "full",
            role: "verdict",
            candidateHash: hash,
            comparison,
            score: { accuracy: 0.75, n: 4, interval: [0, 1] },
            decision: significant(0.1)(comparison),
          },
        ],
        candidates: new Map([[hash, { harness: proposal.candidate, kept: [] }]]),
      };
    },
    next: (state: LoopState, step) => ({
      harness: step.verdict.accepted
        ? (step.validation.candidates.get(step.verdict.candidateHash)?.harness ?? state.harness)
        : state.harness,
      memory: state.memory,
    }),
  };
}

describe("runLoop", () => {
  it("writes one record per decided proposal and puts an accepted candidate in force", async () => {
    const outcome = await runLoop({
      run: scripted((index) => index === 2),
      context: context(),
      scope,
      seed: harness("seed"),
    });
    expect(outcome.stoppedBy).toBe("max-iterations");
    expect(outcome.iterations.map((record) => [record.index, record.verdict])).toEqual([
      [1, "rejected"],
      [2, "accepted"],
      [3, "rejected"],
    ]);
    expect(outcome.iterations[1]).toMatchObject({
      parentHash: "seed",
      candidateHash: "c2",
      accuracyAfter: 0.75,
      elapsedMs: 42,
      reason: "fixed 5, broken 0, p = 0.0313, below alpha 0.1",
    });
    expect(outcome.iterations[2].parentHash).toBe("c2");
    expect(outcome.finalHarness.hash).toBe("c2");
  });

  it("checks the budget before each proposal, and drops a proposal the budget cut short", async () => {
    let spent = false;
    const run = scripted(
      () => true,
      (index) => {
        if (index === 2) {
          spent = true;
          throw new BudgetExhaustedError("rollouts", 10);
        }
      },
    );
    const cut = await runLoop({ run, context: context(), scope, seed: harness("seed") });
    expect(cut.stoppedBy).toBe("budget:rollouts");
    expect(cut.iterations.map((record) => record.index)).toEqual([1]);
    expect(cut.finalHarness.hash).toBe("c1");
    expect(spent).toBe(true);

    let proposals = 0;
    const checked = await runLoop({
      scope,
      run: scripted(
        () => true,
        () => {
          proposals += 1;
        },
      ),
      context: context({ exhausted: () => proposals >= 1 }),
      seed: harness("seed"),
    });
    expect(checked.stoppedBy).toBe("budget:rollouts");
    expect(proposals).toBe(1);
  });

  it("lets the strategy's own stop come first, then maxIterations, then the budget", async () => {
    const run: StrategyRun = { ...scripted(() => false), stop: () => "patience" };
    const stopped = await runLoop({
      run,
      scope,
      context: context({ maxIterations: 1, exhausted: () => true }),
      seed: harness("seed"),
    });
    expect(stopped).toMatchObject({ stoppedBy: "patience", iterations: [] });
    let proposals = 0;
    const capped = await runLoop({
      scope,
      run: scripted(
        () => false,
        () => {
          proposals += 1;
        },
      ),
      context: context({ maxIterations: 1, exhausted: () => proposals >= 1 }),
      seed: harness("seed"),
    });
    expect(capped.stoppedBy).toBe("max-iterations");
    expect(capped.iterations).toHaveLength(1);
  });

  it("refuses a candidate that cannot run before any validation, with the parser's reason", async () => {
    const validated: string[] = [];
    const base = scripted(() => true);
    const run: StrategyRun = {
      ...base,
      validate: (proposal, state, scope) => {
        validated.push(proposal.candidate.hash);
        return base.validate(proposal, state, scope);
      },
    };
    const checked: string[] = [];
    const checking: RunContext = {
      ...context({ maxIterations: 2 }),
      checkCandidate: async ({ candidate, parent }) => {
        checked.push(`${parent.hash}->${candidate.hash}`);
        return candidate.hash === "c1"
          ? "the edited files no longer parse (agent.py: python3: line 3: SyntaxError: invalid syntax); not run"
          : undefined;
      },
    };
    const outcome = await runLoop({ run, context: checking, scope, seed: harness("seed") });
    expect(checked).toEqual(["seed->c1", "seed->c2"]);
    expect(validated).toEqual(["c2"]);
    expect(outcome.iterations[0]).toMatchObject({
      verdict: "rejected",
      reason: expect.stringMatching(
        /^the edited files no longer parse \(agent\.py: python3: line 3/,
      ),
    });
    expect(outcome.iterations[0].candidateHash).toBeUndefined();
    expect(outcome.iterations[1].verdict).toBe("accepted");
    expect(outcome.finalHarness.hash).toBe("c2");
  });

  it("records a follow-up under its iteration's index, uncounted by maxIterations, with its own scope keys", async () => {
    const keys: string[] = [];
    const base = scripted((index) => index === 1);
    // After each rejected proposal of iteration 1 the strategy follows it up once.
    let followUps = 0;
    const run: StrategyRun = {
      ...base,
      followUp: (state) =>
        (state as LoopState & { again?: boolean }).again ? "retry it" : undefined,
      propose: (state, scope) => {
        keys.push(scope.within("again").key("batch"));
        return base.propose(state, scope);
      },
      next: (state, step) => {
        const again = !step.verdict.accepted && followUps++ === 0;
        return { ...base.next(state, step), again } as LoopState;
      },
    };
    const outcome = await runLoop({
      run,
      context: context({ maxIterations: 2 }),
      scope,
      seed: harness("seed"),
    });
    expect(
      outcome.iterations.map((record) => [record.index, record.followUp?.n, record.verdict]),
    ).toEqual([
      [1, undefined, "accepted"],
      [2, undefined, "rejected"],
      [2, 1, "rejected"],
    ]);
    expect(outcome.iterations[2].followUp).toEqual({ n: 1, purpose: "retry it" });
    expect(keys).toEqual([
      "iteration-1/again/batch",
      "iteration-2/again/batch",
      "iteration-2/again/batch",
    ]);
    expect(outcome.stoppedBy).toBe("max-iterations");
  });

  it("rethrows anything but budget exhaustion", async () => {
    const run = scripted(
      () => true,
      () => {
        throw new Error("a real bug");
      },
    );
    await expect(
      runLoop({ run, context: context(), scope, seed: harness("seed") }),
    ).rejects.toThrow("a real bug");
  });
});
