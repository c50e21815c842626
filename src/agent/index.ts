/** Agent stage: the built-in runtime and the command-harness adapter (one `run(task, harness)` each). */

export { type AgentModelEndpoint, agentEnvironment } from "./agent-environment.js";
export { builtinAgent, selfCheckMessage } from "./builtin-agent.js";
export { evaluateExpression, formatNumber } from "./calculator.js";
export { commandAgent } from "./command-agent.js";
export { type CommandOutput, commandOutputSchema } from "./command-output.js";
export { extractAnswer } from "./completion.js";
export { fitHistory } from "./context-window.js";
export { createAgentAdapter, runWorkspace } from "./create-agent-adapter.js";
export { lookupKey } from "./lookup.js";
export { directModelAccess, type ModelAccess, type ModelRoute } from "./model-access.js";
export type { AgentSandbox } from "./sandbox/agent-sandbox.js";
export {
  decideSandbox,
  type SandboxDecision,
  type SandboxStatus,
  sandboxOffWarning,
  sandboxStatusSchema,
} from "./sandbox/sandbox-policy.js";
export { forgetSandboxProbes, probeSandbox, type SandboxProbe } from "./sandbox/sandbox-probe.js";
export { enabledTools } from "./tools.js";
export { type AgentClock, monotonicClock } from "./trace-recorder.js";
export type { AgentAdapter, AgentEvent, Trace, TraceStep } from "./types.js";
export { agentEventKinds, agentEventSchema, traceSchema, traceStepSchema } from "./types.js";
