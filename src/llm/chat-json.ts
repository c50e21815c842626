import type { ZodType } from "zod";
import { extractJsonCandidates } from "./json-extraction.js";
import { type ReplyKind, unusableKind } from "./reply-kind.js";
import { StructuredOutputError } from "./structured-output-error.js";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse } from "./types.js";

/** A request that asks for JSON of a named schema. */
export type JsonChatRequest = ChatRequest & {
  jsonSchema: { name: string; schema: Record<string, unknown> };
};

/** Options of {@link chatJson}. */
export interface ChatJsonOptions {
  /** Re-asks after the first reply when it is unusable. Default 2. */
  maxRepairs?: number;
  signal?: AbortSignal;
}

/** The validated value, the response it came from, and how many re-asks it took. */
export interface ChatJsonResult<T> {
  value: T;
  response: ChatResponse;
  repairs: number;
  /** The kind of every reply, in order (the last is `usable`). */
  replies: ReplyKind[];
}

const maxEchoedReplyChars = 2_000;
const maxIssueChars = 1_500;
const fence = "`".repeat(3);

/**
 * Structured output that survives real OpenAI-compatible servers: reads JSON from fences or
 * prose, forgives trailing commas, validates with zod, and re-asks (bounded) with the
 * validation errors. Throws {@link StructuredOutputError} when every attempt failed.
 */
export async function chatJson<T>(
  provider: ChatProvider,
  request: JsonChatRequest,
  schema: ZodType<T>,
  options: ChatJsonOptions = {},
): Promise<ChatJsonResult<T>> {
  const maxRepairs = Math.max(0, options.maxRepairs ?? 2);
  let messages: ChatMessage[] = request.messages;
  let issues: string[] = [];
  let raw = "";
  const replies: ReplyKind[] = [];
  for (let attempt = 0; attempt <= maxRepairs; attempt++) {
    const response = await provider.chat({ ...request, messages }, { signal: options.signal });
    raw = response.content ?? "";
    const outcome = readStructured(response, schema);
    replies.push(outcome.ok ? "usable" : unusableKind(response, outcome.foundJson));
    if (outcome.ok) return { value: outcome.value, response, repairs: attempt, replies };
    issues = outcome.issues;
    messages = withRepairNote(
      request.messages,
      repairNote(request.jsonSchema.name, response, issues),
    );
  }
  throw new StructuredOutputError(
    request.jsonSchema.name,
    maxRepairs + 1,
    issues,
    raw.slice(0, 1_000),
    replies,
  );
}

type Outcome<T> = { ok: true; value: T } | { ok: false; issues: string[]; foundJson: boolean };

function readStructured<T>(response: ChatResponse, schema: ZodType<T>): Outcome<T> {
  const text = response.content ?? "";
  if (text.trim() === "") {
    const what = response.reasoning ? "had reasoning only and no answer" : "was empty";
    return { ok: false, issues: [`the reply ${what}`], foundJson: false };
  }
  const candidates = extractJsonCandidates(text);
  if (candidates.length === 0) {
    const cut =
      response.finishReason === "length" ? " (the reply was cut off at the token limit)" : "";
    return { ok: false, issues: [`no JSON object found in the reply${cut}`], foundJson: false };
  }
  let firstIssues: string[] | undefined;
  for (const candidate of candidates) {
    const parsed = schema.safeParse(candidate);
    if (parsed.success) return { ok: true, value: parsed.data };
    firstIssues ??= parsed.error.issues.map(
      (issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`,
    );
  }
  return { ok: false, issues: firstIssues ?? [], foundJson: true };
}

/**
 * The original conversation with the note appended to its last user message. The note rides in
 * that message (rather than after an echoed assistant turn) so a role's evidence stays the last
 * fenced json block of the last user message, where docs/sim-protocol.md §2 says it is read;
 * notes replace each other, so a request never carries more than one.
 */
function withRepairNote(original: ChatMessage[], note: string): ChatMessage[] {
  const index = original.findLastIndex((message) => message.role === "user");
  if (index === -1) return [...original, { role: "user", content: note }];
  const messages = [...original];
  const content = (original[index] as { content: string }).content;
  messages[index] = { role: "user", content: `${content}\n\n${note}` };
  return messages;
}

function repairNote(schemaName: string, response: ChatResponse, issues: string[]): string {
  const listed = issues
    .slice(0, 10)
    .map((issue) => `- ${issue}`)
    .join("\n")
    .slice(0, maxIssueChars);
  const head =
    response.finishReason === "length"
      ? `Your previous reply was cut off at the token limit before the JSON was complete. Reply again with a shorter JSON object for '${schemaName}'.`
      : `Your previous reply could not be used as the JSON object '${schemaName}'.`;
  const reply = (response.content ?? "").trim().slice(0, maxEchoedReplyChars);
  // Fences in the echo are neutralised so they can never be taken for the evidence block.
  const echo = reply ? `\nYour previous reply began:\n${reply.replaceAll(fence, "'''")}` : "";
  return `Note about your previous reply: ${head}${echo}\nProblems:\n${listed}\nReply with only the corrected JSON object, no prose and no code fences.`;
}
