/**
 * Version of the simulated model's behaviour. Rollouts and calls of the sim are cached by their
 * request and this version (with the world file's content hash, `rolloutParams`): a cache filled
 * by an Ecdysis whose sim answered differently must miss, or a run would be scored on replies the
 * sim no longer gives. Bump it with every change that makes the sim answer any request
 * differently (agent or refiner side, latency excepted); `behaviour-version.test.ts` fails until
 * its recorded fingerprint of the sim's replies matches this version's.
 */
export const simBehaviourVersion = 1;
