/** The simulated model: an OpenAI-compatible endpoint answering from a world file (DESIGN.md §5). */

export { endpointFromQuirks, type SimEndpoint } from "./endpoint-behaviour.js";
export { recognise } from "./families/recognise.js";
export type { NonCompletion, SimFaults } from "./faults.js";
export { type GroundTruthEntry, groundTruthKey } from "./ground-truth-log.js";
export { bundledWorlds, loadWorld, parseWorld, worldsDir } from "./load-world.js";
export { diagnosisAccuracy } from "./refiner/analysis-roles.js";
export { type SimServer, type SimServerOptions, startSimServer } from "./server.js";
export {
  type GeneratedWorld,
  generateWorld,
  type TaskDeficiency,
  type TaskTruth,
} from "./task-generation.js";
export { generateWorldFiles } from "./world-files.js";
export {
  type FamilyKind,
  familyKinds,
  type Quirk,
  quirkSchema,
  systematicKinds,
  type World,
  worldSchema,
} from "./world-schema.js";
