import type { ZodType } from "zod";
import { askStructured, isStructuredOutputFailure } from "../diagnose/structured-ask.js";
import { evidenceBlock } from "../diagnose/untrusted-text.js";
import { extractJsonCandidates } from "../llm/json-extraction.js";
import { requestDigest } from "../llm/request-digest.js";
import type { ChatProvider } from "../llm/types.js";
import type { RoleTurn } from "./refinement-record.js";

/** A role's reply could not be used after chatJson's bounded repairs. */
export class RoleOutputUnusable extends Error {
  constructor(
    readonly role: RoleTurn["role"],
    readonly reason: unknown,
  ) {
    super(`${role}: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = "RoleOutputUnusable";
  }
}

/**
 * Calls one role and logs the turn. Unusable structured output becomes RoleOutputUnusable (the
 * refinement ends as `failed`) unless `salvage` can still use part of the last reply (its JSON
 * candidates, best first); transport errors propagate untouched.
 */
export async function callRole<T>(options: {
  refiner: ChatProvider;
  role: RoleTurn["role"];
  schemaName: string;
  template: string;
  evidence: unknown;
  jsonSchema: Record<string, unknown>;
  schema: ZodType<T>;
  round: number;
  summary: string;
  turns: RoleTurn[];
  /** What can still be used of a reply that stayed invalid after the repairs (undefined: nothing). */
  salvage?: (candidates: unknown[]) => T | undefined;
  /** The call's temperature and seed, when the caller samples (askStructured's `sampling`). */
  sampling?: { temperature?: number; seed?: number };
}): Promise<T> {
  const turn: RoleTurn = {
    role: options.role,
    schemaName: options.schemaName,
    round: options.round,
    input: options.summary,
    evidenceChars: evidenceBlock(options.evidence).length,
    output: null,
    callIds: [],
  };
  options.turns.push(turn);
  const { provider, lastReply } = recordingProvider(options.refiner, turn);
  try {
    const { value, replies } = await askStructured({
      provider,
      schemaName: options.schemaName,
      purpose: options.role,
      instructions: options.template,
      evidence: options.evidence,
      jsonSchema: options.jsonSchema,
      schema: options.schema,
      // The config shows every field in use; the generated reference is what a short context loses first.
      expendable: ["harness.reference"],
      sampling: options.sampling,
    });
    turn.output = value;
    turn.replies = replies;
    return value;
  } catch (error) {
    if (!isStructuredOutputFailure(error)) throw error;
    turn.error = error.message;
    turn.replies = error.replies;
    const salvaged = options.salvage?.(extractJsonCandidates(lastReply()));
    if (salvaged !== undefined) {
      turn.output = salvaged;
      turn.error = `${turn.error} (the usable part of the last reply was kept)`;
      return salvaged;
    }
    throw new RoleOutputUnusable(options.role, error);
  }
}

/** The refiner, noting each call's id on the turn and keeping its last reply (for `salvage`). */
function recordingProvider(
  refiner: ChatProvider,
  turn: RoleTurn,
): { provider: ChatProvider; lastReply(): string } {
  let lastReply = "";
  const provider: ChatProvider = {
    model: refiner.model,
    baseUrl: refiner.baseUrl,
    chat: async (request, callOptions) => {
      turn.callIds?.push(requestDigest(request.messages));
      const response = await refiner.chat(request, callOptions);
      lastReply = response.content ?? "";
      return response;
    },
  };
  return { provider, lastReply: () => lastReply };
}

/**
 * Settles calls of one role made side by side (one per pattern, one per change) and returns the
 * usable replies in order. An unusable reply only drops its own item; when every reply is
 * unusable the role fails with the first one's error. Any other error (transport) propagates
 * once all calls have settled.
 */
export async function settleRoleCalls<T>(calls: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(calls);
  const errors = settled.flatMap((outcome) =>
    outcome.status === "rejected" ? [outcome.reason as unknown] : [],
  );
  const fatal = errors.find((error) => !(error instanceof RoleOutputUnusable));
  if (fatal !== undefined) throw fatal;
  if (errors.length > 0 && errors.length === settled.length) throw errors[0];
  return settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
}
