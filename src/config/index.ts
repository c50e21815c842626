export { canonicalJson } from "./canonical-json.js";
export { checkConfigPaths, repositoryRoot } from "./config-paths.js";
export * from "./config-schema.js";
export { configuredSecrets, githubTokenVariables } from "./configured-secrets.js";
export { ecdysisVersion, packageRoot } from "./ecdysis-version.js";
export { uncommittedChanges } from "./git-changes.js";
export { gitState } from "./git-state.js";
export {
  describeField,
  type HarnessFieldReference,
  type HarnessReference,
  harnessReference,
} from "./harness-reference.js";
export * from "./harness-schema.js";
export { parseHarnessYaml } from "./harness-yaml.js";
export { jsonSchemas, writeJsonSchemas } from "./json-schema.js";
export { configHash, loadConfig } from "./load-config.js";
export { loadTasks, parseTasks, type TaskOrigin, taskOrigin } from "./load-tasks.js";
export { decodeUtf8, readUserText } from "./read-text.js";
export * from "./sandbox-config.js";
export { checkSplitOverlap, loadSplits, type Splits } from "./split-overlap.js";
export * from "./strategy-options.js";
export * from "./task-schema.js";
export {
  type BundledWorldName,
  bundledWorldNames,
  isBundledWorld,
  isWorldName,
  worldNameProblem,
} from "./world-names.js";
export {
  dottedField,
  type LocatedYaml,
  parseLocatedYaml,
  validateLocated,
} from "./yaml-document.js";
