import { appendFileSync } from "node:fs";
import fc from "fast-check";

/** Cases every guard property runs in a full fuzz, `npm run fuzz` (issue #10: ≥ 10,000 each). */
export const fullFuzzCases = 10_000;

/**
 * Cases every guard property runs at least in this run: the full count under `npm run fuzz`
 * (`ECDYSIS_FUZZ=full`), a fifth of it in `npm test` — the first draws of the same fixed-seed
 * streams, so CI's run is a prefix of the full one and stays within CI's 20 minutes.
 */
export const minimumFuzzCases = process.env.ECDYSIS_FUZZ === "full" ? fullFuzzCases : 2_000;

/**
 * Draws for a property whose full fuzz takes `fullRuns` draws (some vacuous, not counted): all of
 * them in a full fuzz, else a fifth and a margin for a prefix with more vacuous draws.
 */
export function fuzzRuns(fullRuns: number): number {
  return minimumFuzzCases === fullFuzzCases ? fullRuns : Math.ceil(fullRuns / 5) + 150;
}

/**
 * Runs a fast-check property for `runs` cases, from a fixed seed (`nameSeed`), and returns how many cases it actually ran
 * (counted inside the predicate, shrinking excluded; a predicate that returns `false` marks its
 * case as vacuous, which is not counted). The count is printed, and appended as a
 * JSON line to `$ECDYSIS_FUZZ_LOG` when set, so a report can show what ran.
 */
export function runProperty<T>(options: {
  name: string;
  arbitrary: fc.Arbitrary<T>;
  predicate: (value: T) => unknown;
  runs: number;
  /** The fast-check seed; by default one fixed per property name, so every run draws the same cases. */
  seed?: number;
}): number {
  let cases = 0;
  let shrinking = false;
  fc.assert(
    fc.property(options.arbitrary, (value) => {
      try {
        const effective = options.predicate(value);
        if (!shrinking && effective !== false) cases += 1;
      } catch (error) {
        shrinking = true;
        throw error;
      }
    }),
    { numRuns: options.runs, seed: options.seed ?? nameSeed(options.name) },
  );
  const log = process.env.ECDYSIS_FUZZ_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ property: options.name, cases })}\n`);
  console.log(`fuzz: ${options.name}: ${cases} cases`);
  return cases;
}

/** A fixed 31-bit seed for a property name (FNV-1a), so a failure reproduces on every machine. */
export function nameSeed(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index += 1)
    hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193) >>> 0;
  return hash & 0x7fffffff;
}
