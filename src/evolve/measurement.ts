import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import { AgentUnusableError } from "../errors/agent-unusable-error.js";
import { CrashTally } from "../eval/agent-errors.js";
import { type RolloutRecord, type Verdict, verdictSchema } from "../eval/types.js";
import type { LoadedHarness } from "../harness/types.js";
import type { EvaluateFn } from "./run-context.js";
import { evaluationSchema } from "./stage-schemas.js";

/**
 * One harness measured on one split, as much as the result, the reports and records.json need
 * and no more: the evaluation's result, what each task's rollouts cost, and the keys of the
 * failing rollouts (train only; records.json reads them back from the rollout cache). Every
 * trace stays in the cache, so measuring 20,000 tasks does not hold 20,000 traces.
 */
export const measurementSchema = z.object({
  result: evaluationSchema.shape.result,
  /** Tokens of each task's rollouts (every sample, cached or not), in `result.tasks` order. */
  tokens: z.array(z.number()),
  /** Cost of each task's rollouts, in `result.tasks` order. */
  costUsd: z.array(z.number()),
  /**
   * The failing rollouts with their verdicts as scored now, in `result.tasks` order (none for
   * the held-out split): records.json reads the rest of each back from the rollout cache.
   */
  failing: z.array(z.object({ key: z.string(), verdict: verdictSchema })),
});
/** One harness measured on one split. */
export type Measurement = z.infer<typeof measurementSchema>;

/** The four measurements of a run, in this order: seed train, seed held-out, final train, final held-out. */
export type Measured = [Measurement, Measurement, Measurement, Measurement];

/** One harness on one split, through the run's evaluation. */
export async function measure(input: {
  evaluate: EvaluateFn;
  split: "train" | "heldout";
  tasks: Task[];
  harness: LoadedHarness;
  samples: number;
  label: string;
  /** Also told of every record (a `CrashTally`). */
  tally?: CrashTally;
}): Promise<Measurement> {
  const spend = new Map<string, { tokens: number; costUsd: number }>();
  const failing = new Map<string, Verdict>();
  const onRecord = (record: RolloutRecord) => {
    input.tally?.add(record);
    const entry = spend.get(record.taskId) ?? { tokens: 0, costUsd: 0 };
    const usage = record.trace.usage;
    entry.tokens += usage.promptTokens + usage.completionTokens;
    entry.costUsd += usage.costUsd;
    spend.set(record.taskId, entry);
    if (input.split === "train" && !record.verdict.pass) failing.set(record.key, record.verdict);
  };
  const { result } = await input.evaluate({
    tasks: input.tasks,
    harness: input.harness,
    samples: input.samples,
    label: input.label,
    keep: () => false,
    onRecord,
  });
  const of = (taskId: string) => spend.get(taskId) ?? { tokens: 0, costUsd: 0 };
  return {
    result,
    tokens: result.tasks.map((task) => of(task.taskId).tokens),
    costUsd: result.tasks.map((task) => of(task.taskId).costUsd),
    failing: result.tasks.flatMap((task) =>
      task.rolloutKeys.flatMap((key) => {
        const verdict = failing.get(key);
        return verdict ? [{ key, verdict }] : [];
      }),
    ),
  };
}

/**
 * The seed and final harnesses on both splits. The four measurements are independent and run
 * concurrently within the run's one limit of rollouts in flight (rollouts are keyed, so results
 * do not depend on the order). When the final harness is the seed harness, the final runs wait
 * for the seed runs: they share rollouts through the cache, which concurrent runs would both miss.
 * When the agent crashed in every rollout of the four (a measure shard on a runner where it cannot
 * start), nothing was measured: an AgentUnusableError names the first crash and the fix — unless
 * `crashesKnown` (the search already stopped as agent-unusable and says so; the run's result and
 * report still get written).
 */
export async function measureHarnesses(input: {
  evaluate: (split: "train" | "heldout") => EvaluateFn;
  tasks: { train: Task[]; heldout: Task[] };
  seed: LoadedHarness;
  final: LoadedHarness;
  samples: { seed: number; final: number };
  crashesKnown?: boolean;
}): Promise<Measured> {
  const tally = new CrashTally();
  const one = (split: "train" | "heldout", final: boolean) =>
    measure({
      evaluate: input.evaluate(split),
      split,
      tasks: input.tasks[split],
      harness: final ? input.final : input.seed,
      samples: final ? input.samples.final : input.samples.seed,
      label: `${final ? "final" : "seed"}: ${split === "train" ? "train" : "held-out"}`,
      tally,
    });
  const seedRuns = Promise.all([one("train", false), one("heldout", false)]);
  if (input.final.hash === input.seed.hash) await seedRuns;
  const finalRuns = Promise.all([one("train", true), one("heldout", true)]);
  const [[seedTrain, seedHeldout], [finalTrain, finalHeldout]] = await Promise.all([
    seedRuns,
    finalRuns,
  ]);
  const measured: Measured = [seedTrain, seedHeldout, finalTrain, finalHeldout];
  const total = measured.reduce(
    (sum, each) => sum + each.result.cost.rollouts + each.result.cost.cachedRollouts,
    0,
  );
  const crashed = tally.reason(total);
  if (crashed && !input.crashesKnown)
    throw new AgentUnusableError(`nothing was measured: ${crashed}`);
  return measured;
}
