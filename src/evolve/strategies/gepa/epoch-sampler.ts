import { type Rng, shuffled } from "../../rng.js";

// GEPA's default batch sampler (src/gepa/strategies/batch_sampler.py, EpochShuffledBatchSampler),
// as a pure function of the draw number: the train ids are shuffled once per epoch, padded to a
// whole number of minibatches with the least-used ids, and cut into consecutive minibatches.

/**
 * One epoch's order: the ids shuffled, then padded to a multiple of `size` by repeating the
 * least frequent ids — all are used once, so GEPA's tie order (`most_common()[::-1]`: the id
 * inserted last) takes the shuffled ids from the end backwards.
 */
export function epochOrder<T>(ids: readonly T[], size: number, rng: Rng): T[] {
  const order = shuffled(ids, rng);
  const remainder = order.length % size;
  const padding = remainder === 0 ? 0 : size - remainder;
  const base = [...order];
  for (let index = 0; index < padding; index++)
    order.push(base[(base.length - 1 - index + base.length * size) % base.length]);
  return order;
}

/**
 * The minibatch of draw `draw` (0, 1, 2, … — GEPA's iteration counter, skipped minibatches
 * included): epoch `⌊draw·size / L⌋` (L the padded epoch length) shuffled with `rngOfEpoch(epoch)`,
 * and its `draw`-th slice of `size` ids. Deterministic in `draw`, so a resumed run draws the same.
 */
export function minibatchAt<T>(options: {
  ids: readonly T[];
  size: number;
  draw: number;
  rngOfEpoch: (epoch: number) => Rng;
}): T[] {
  const { ids, size, draw } = options;
  if (ids.length === 0) throw new Error("epoch sampler: no train ids to draw a minibatch from");
  if (size < 1) throw new Error(`epoch sampler: minibatch size ${size} must be at least 1`);
  const length = ids.length + ((size - (ids.length % size)) % size);
  const start = draw * size;
  const epoch = Math.floor(start / length);
  const order = epochOrder(ids, size, options.rngOfEpoch(epoch));
  const offset = start % length;
  return order.slice(offset, offset + size);
}

/** Minibatches in one epoch (the padded epoch length over the size). */
export function minibatchesPerEpoch(trainSize: number, size: number): number {
  return Math.ceil(trainSize / size);
}
