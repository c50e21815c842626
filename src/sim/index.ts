/**
 * The simulated model: an OpenAI-compatible endpoint answering from a world file (DESIGN.md §5).
 * What the pipeline may use; the ground truth is not here (src/sim/world-generator.ts).
 */

export { endpointFromQuirks, type SimEndpoint } from "./endpoint-behaviour.js";
export type { NonCompletion, SimFaults } from "./faults.js";
export { bundledWorlds, loadWorld, parseWorld } from "./load-world.js";
export {
  hiddenReasoningTokens,
  type MisbehaviourKind,
  misbehaviourKinds,
  type SimMisbehaviour,
  simMisbehaviourSchema,
} from "./misbehaviour.js";
export { serveSimModel } from "./serve-sim-model.js";
export { type SimServer, type SimServerOptions, startSimServer } from "./server.js";
// Tasks and the seed harness only; the ground truth and generator are src/sim/world-generator.ts.
export { generateWorldFiles, type WorldFiles } from "./world-files.js";
export {
  familyKinds,
  type Quirk,
  quirkSchema,
  systematicKinds,
  type World,
  worldSchema,
} from "./world-schema.js";
