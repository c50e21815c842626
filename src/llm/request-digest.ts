import { createHash } from "node:crypto";
import type { ChatMessage } from "./types.js";

/**
 * A short content hash of a request's messages (role and text of each): the id under which a
 * kept prompt is stored (src/evolve's prompt log) and named by the role turn that sent it, so
 * the report can show each call's prompt beside the turn. Identical requests share an id.
 */
export function requestDigest(messages: readonly ChatMessage[]): string {
  const canonical = JSON.stringify(messages.map((message) => [message.role, message.content]));
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}
