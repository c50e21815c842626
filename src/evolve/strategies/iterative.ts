import { refinementSummary } from "../../refine/refinement-record.js";
import { rememberedHms } from "../memory.js";
import type { RunContext } from "../run-context.js";
import { namedStream, type RandomStreams, type StrategyScope } from "../run-scope.js";
import { stageSchemas } from "../stage-schemas.js";
import type { LoopStep, Strategy, StrategyRun } from "../strategy.js";
import { childPointer } from "./gepa/component-selector.js";
import { minibatchesPerEpoch } from "./gepa/epoch-sampler.js";
import { bestCandidate } from "./gepa/pareto.js";
import { childLineage, nextMerges, noMerges, proposeMerge } from "./iterative-merge.js";
import {
  type Drawn,
  type IterativeState,
  instanceScores,
  type PoolEntry,
  proposeFromMinibatch,
  validateOnMinibatch,
} from "./iterative-steps.js";

/**
 * The iterative baseline's random streams: the parent drawn per iteration, the sampler's shuffle
 * per epoch (the sub-seed paths they were first given; run-scope.ts).
 */
const iterativeStreams = {
  parent: (iteration: number) => [41, iteration],
  epoch: (epoch: number) => [42, epoch],
  merge: (iteration: number) => [43, iteration],
  reflection: namedStream("reflection"),
} satisfies RandomStreams;
/** The name of one of the iterative baseline's random streams. */
export type IterativeStream = keyof typeof iterativeStreams;

/**
 * The iterative baseline, GEPA's defaults (src/gepa/core/engine.py, proposer/reflective_mutation,
 * strategies/): the seed evaluated on the train split (GEPA's valset, as when none is given);
 * then, serially, a parent drawn from the Pareto front of per-task train scores, a reflection
 * minibatch of `evolve.iterative.minibatch` (3) train tasks from an epoch-shuffled sampler (minibatches
 * the parent passes entirely are skipped), the reflector shown that minibatch and asked to change
 * the module the round-robin selector names (`evolve.iterative.components`), the child scored on the same
 * minibatch and fully evaluated only when its summed score there is strictly higher; a fully
 * evaluated child joins the pool, and becomes the harness in force when its mean train score is
 * the best. Rejections are remembered on the parent they were made on. It runs until the budget
 * or `maxIterations` is spent. Evaluations use the run's concurrency and call cache.
 * docs/bench/gepa-baseline.md maps each choice to the GEPA file it mirrors.
 */
export function iterativeStrategy(): Strategy {
  return {
    name: "iterative",
    streams: iterativeStreams,
    open: (context, scope) => iterativeRun(context, scope),
  };
}

function iterativeRun(
  context: RunContext,
  runScope: StrategyScope<IterativeStream>,
): StrategyRun<IterativeState, Drawn> {
  const patience = context.config.evolve.iterative.patience ?? Number.POSITIVE_INFINITY;
  const staleLimit = staleProposals(context);
  return {
    async start(seed) {
      const run = await runScope.stage(
        "evaluate-seed",
        () => context.evaluate({ tasks: context.train, harness: seed, label: "seed: train" }),
        stageSchemas.evaluation,
      );
      const entry: PoolEntry = {
        harness: seed,
        run,
        scores: instanceScores(run),
        pointer: 0,
        lineage: { edits: [], ancestors: [] },
      };
      return {
        harness: seed,
        memory: [],
        pool: [entry],
        best: 0,
        draws: 0,
        withoutImprovement: 0,
        scored: [seed.hash],
        withoutNewCandidate: 0,
        merges: noMerges,
      };
    },
    stop: (state) => {
      if (state.withoutImprovement >= patience) return "patience";
      return state.withoutNewCandidate >= staleLimit ? "attempts-exhausted" : undefined;
    },
    propose: async (state, scope) =>
      proposeMerge({ context, state, scope }) ??
      proposeFromMinibatch({ context, runScope, state, scope }),
    validate: (proposal, state, scope) => validateOnMinibatch({ context, proposal, state, scope }),
    next,
  };
}

/**
 * Proposals in a row that gave no candidate not scored before — the reflector proposed nothing,
 * the edits were refused, or the child repeats one already scored — after which the search has
 * nothing new to evaluate: two epochs of minibatches. GEPA would go on paying a minibatch of the
 * parent per iteration until its metric budget is spent; with the call cache those repeats cost
 * nothing here, so without this stop the loop would spin on free refiner calls until maxIterations.
 */
export function staleProposals(context: RunContext): number {
  return 2 * minibatchesPerEpoch(context.train.length, context.config.evolve.iterative.minibatch);
}

/** The pool after a proposal: the parent's pointer advanced, a fully evaluated child added, the best re-chosen. */
function next(state: IterativeState, step: LoopStep<Drawn>): IterativeState {
  const { proposal, validation, verdict } = step;
  const drawn = proposal.data;
  const pool = state.pool.map((entry, index) =>
    index === drawn.parentIndex ? { ...entry, pointer: drawn.pointer } : entry,
  );
  const child =
    proposal.kind === "candidate" ? validation.candidates.get(proposal.candidate.hash) : undefined;
  if (child?.run)
    pool.push({
      harness: child.harness,
      run: child.run,
      scores: instanceScores(child.run),
      pointer: childPointer(
        drawn.merge ? [drawn.pointer, state.pool[drawn.merge.j].pointer] : [drawn.pointer],
      ),
      lineage: childLineage({ pool: state.pool, drawn, applied: child.kept }),
    });
  const best = bestCandidate(pool.map((entry) => entry.scores));
  const fresh = proposal.kind === "candidate" && !state.scored.includes(proposal.candidate.hash);
  const base = {
    ...state,
    pool,
    best,
    harness: pool[best].harness,
    draws: drawn.draws,
    scored: fresh ? [...state.scored, proposal.candidate.hash] : state.scored,
    withoutNewCandidate: fresh ? 0 : state.withoutNewCandidate + 1,
    merges: nextMerges(state.merges, { merge: drawn.merge, joinedPool: Boolean(child?.run) }),
  };
  if (verdict.accepted) return { ...base, withoutImprovement: 0 };
  const withoutImprovement = state.withoutImprovement + 1;
  // A child that joined the pool is a parent to come, not a rejection to remember.
  // A merge is no reflection to show later ones (GEPA tries each triplet once).
  if (child?.run || !proposal.refinement || drawn.merge) return { ...base, withoutImprovement };
  const summary = refinementSummary(proposal.refinement);
  return {
    ...base,
    withoutImprovement,
    memory: [
      ...state.memory,
      {
        summary,
        hms: rememberedHms(proposal.refinement.hms, summary, proposal.targets),
        reason: verdict.reason,
        patternIds: proposal.targets,
        parentHash: proposal.seen.parent.hash,
      },
    ],
  };
}
