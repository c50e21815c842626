/** The model gateway: the LLM layer served over loopback HTTP to agents that call their model themselves. */

export { chatCompletionEvents, pieces, responseEvents } from "./event-stream.js";
export { type ModelGateway, type ModelGatewayOptions, startModelGateway } from "./model-gateway.js";
export { ReplyCache, replyCacheKey, type StoredReply } from "./reply-cache.js";
export type { RolloutLease, RolloutTally } from "./rollout-leases.js";
export { apiOfPath, usageOf, type WireApi, type WireBody, wireApis } from "./wire.js";
export { adaptToSettings, readTextTools } from "./wire-capabilities.js";
export {
  createWireForwarder,
  type ForwardOutcome,
  type WireCall,
  type WireForwarder,
} from "./wire-forwarder.js";
