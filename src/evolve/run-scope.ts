import type { z } from "zod";
import { createRng, deriveSeed, type Rng } from "./rng.js";
import type { RunContext } from "./run-context.js";
import type { Strategy, StrategyRun } from "./strategy.js";

/**
 * A strategy's random streams, by name: the sub-seed path each draws from for one part (an
 * iteration, an epoch). A strategy declares them once, beside its code; the run derives every
 * draw from the run's seed and the path, so a resumed run draws the same numbers without stored
 * state. The paths of the built-in strategies are the ones they were first given — changing one
 * re-draws every run that uses it — and `run-scope.test.ts` checks that no two streams of a
 * strategy ever share a path. A new stream takes `namedStream(name)`.
 */
export type RandomStreams<Stream extends string = string> = Readonly<
  Record<Stream, (part: number) => readonly number[]>
>;

/** The path of a new stream: its name hashed (FNV-1a) into the first part, then the part. */
export function namedStream(name: string): (part: number) => readonly number[] {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  const id = hash | 0;
  return (part) => [id, part];
}

/** Runs a stage once per run (the journal), its output checked against `schema` on replay. */
export type StageRunner = <T>(
  name: string,
  run: () => Promise<T>,
  schema?: z.ZodType,
) => Promise<T>;

/**
 * The journal stages and random streams of one iteration, already named for it: a strategy asks
 * for `diagnose` or the `batch` stream, never builds `iteration-3/diagnose` or picks a number.
 */
export interface IterationScope<Stream extends string = string> {
  /** The iteration (1-based; a follow-up proposal shares its iteration's). */
  readonly index: number;
  /** The journal key of a stage of this iteration (`iteration-3/diagnose`). */
  key(name: string): string;
  /** Runs a stage of this iteration once per run (`context.stage` under `key(name)`). */
  stage<T>(name: string, run: () => Promise<T>, schema?: z.ZodType): Promise<T>;
  /** The iteration's draw of a stream. */
  rng(stream: Stream): Rng;
  /** A nested scope (`iteration-3/repair/…`) that draws from the iteration's own streams. */
  within(name: string): IterationScope<Stream>;
}

/** The scopes a strategy's run is handed: its run-wide stages and streams, and each iteration's. */
export interface StrategyScope<Stream extends string = string> {
  /** The journal key of a run-wide stage of the strategy (`iterative/evaluate-seed`). */
  key(name: string): string;
  stage<T>(name: string, run: () => Promise<T>, schema?: z.ZodType): Promise<T>;
  /** A stream's draw for one part (an epoch; an iteration's is `iteration(i).rng`). */
  rng(stream: Stream, part: number): Rng;
  iteration(index: number): IterationScope<Stream>;
}

/** The scopes of one strategy on one run: keys under its name and iterations, streams from its table. */
export function strategyScope<Stream extends string>(options: {
  strategy: string;
  streams: RandomStreams<Stream>;
  seed: number;
  stage: StageRunner;
}): StrategyScope<Stream> {
  const { strategy, streams, seed, stage } = options;
  const rng = (stream: Stream, part: number): Rng => {
    const path = streams[stream];
    if (!path) throw new Error(`${strategy}: no random stream '${stream}' is declared`);
    return createRng(deriveSeed(seed, ...path(part)));
  };
  const iteration = (index: number, prefix: string): IterationScope<Stream> => {
    const key = (name: string) => `${prefix}/${name}`;
    return {
      index,
      key,
      stage: (name, run, schema) => stage(key(name), run, schema),
      rng: (stream) => rng(stream, index),
      within: (name) => iteration(index, key(name)),
    };
  };
  const key = (name: string) => `${strategy}/${name}`;
  return {
    key,
    stage: (name, run, schema) => stage(key(name), run, schema),
    rng,
    iteration: (index) => iteration(index, `iteration-${index}`),
  };
}

/**
 * Opens a strategy on a run's context with its scopes: its stages under its name and its
 * iterations, its streams from its own table, drawn from the run's seed.
 */
export function openStrategy(
  strategy: Strategy,
  context: RunContext,
): { strategyRun: StrategyRun; scope: StrategyScope } {
  const scope = strategyScope({
    strategy: strategy.name,
    streams: strategy.streams,
    seed: context.config.seed,
    stage: context.stage,
  });
  return { strategyRun: strategy.open(context, scope), scope };
}
