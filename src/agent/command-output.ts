import { z } from "zod";
import { type AgentEvent, agentEventKinds, type TraceStep } from "./types.js";

// The stdout protocol of a command harness, as published in schemas/command-output.schema.json.
// Strict where a wrong value would be scored (the output, the answer); lenient where a real
// agent's slip is harmless (an event kind of its own, a step field it does not track).

const maxDetail = 2000;
/** Where the protocol is published (`ecdysis schema --out schemas` writes it). */
const schemaName = "schemas/command-output.schema.json";
const count = z.number().min(0).describe("a count (a fraction is rounded)");
const toText = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));

/** One tool call of a step: arguments and result may be JSON values; they are kept as text. */
const commandToolCallSchema = z
  .object({
    name: z.string().describe("the tool's name"),
    arguments: z
      .unknown()
      .optional()
      .describe("the arguments as sent (text or a JSON value); default empty"),
    result: z.unknown().optional().describe("what the tool returned (text or a JSON value)"),
    error: z.boolean().optional().describe("the call failed (default false)"),
  })
  .transform((call) => ({
    name: call.name,
    arguments: call.arguments === undefined ? "" : toText(call.arguments),
    result: call.result === undefined ? "" : toText(call.result),
    error: call.error ?? false,
  }));

/** One model turn of the agent; every field has a default. */
const commandStepSchema = z
  .object({
    assistant: z.string().nullable().optional().describe("what the model said (default null)"),
    toolCalls: z.array(commandToolCallSchema).optional().describe("tool calls of this turn"),
    promptTokens: count.optional(),
    completionTokens: count.optional(),
    latencyMs: z.number().min(0).optional(),
  })
  .transform(
    (step): TraceStep => ({
      assistant: step.assistant ?? null,
      toolCalls: step.toolCalls ?? [],
      promptTokens: Math.round(step.promptTokens ?? 0),
      completionTokens: Math.round(step.completionTokens ?? 0),
      latencyMs: step.latencyMs ?? 0,
    }),
  );

/**
 * A signal the agent recorded. A kind Ecdysis knows (`step-limit`, `tool-error`, …) keeps its
 * meaning; any other kind is kept as a generic `agent-event` whose detail starts with the kind.
 */
const commandEventSchema = z
  .object({
    kind: z
      .union([z.enum(agentEventKinds), z.string().min(1)])
      .describe("a known kind, or the agent's own (kept as a generic agent-event)"),
    step: z.number().optional().describe("the step it happened at (default 0)"),
    detail: z
      .unknown()
      .optional()
      .describe(`free text or a JSON value (kept as text, cut at ${maxDetail} characters)`),
  })
  .transform((event): AgentEvent => {
    const known = (agentEventKinds as readonly string[]).includes(event.kind);
    const text = event.detail === undefined ? undefined : toText(event.detail);
    const detail = known
      ? text
      : [event.kind, text].filter((part) => part !== undefined).join(": ");
    return {
      kind: known ? (event.kind as AgentEvent["kind"]) : "agent-event",
      step: Math.max(0, Math.round(event.step ?? 0)),
      ...(detail === undefined ? {} : { detail: detail.slice(0, maxDetail) }),
    };
  });

/**
 * The agent's own model spend. Ecdysis prices the tokens with the configured model's `price`
 * (so they count against `budget.costUsd`); `costUsd` is used only when no price is configured.
 * Without `usage`, the steps' tokens are summed (one call per step).
 */
const commandUsageSchema = z.object({
  promptTokens: count.optional().describe("prompt tokens of every model call of this rollout"),
  completionTokens: count.optional().describe("completion tokens of every model call"),
  llmCalls: count.optional().describe("model calls made"),
  costUsd: z.number().min(0).optional().describe("the agent's own cost estimate (USD)"),
});

/** What a command harness prints on stdout: one JSON object. */
export const commandOutputSchema = z.object({
  output: z.string().describe("the agent's final text (what the answer is extracted from)"),
  answer: z
    .union([z.string(), z.number()], { error: "expected text or a number (or null)" })
    .nullable()
    .optional()
    .transform((answer) => (typeof answer === "number" ? String(answer) : answer))
    .describe("the final answer; a number is taken as its text; absent: extracted from output"),
  trace: z
    .object({
      steps: z.array(commandStepSchema).optional(),
      events: z.array(commandEventSchema).optional(),
      usage: commandUsageSchema.optional(),
    })
    .optional()
    .describe("how the agent got there (all optional)"),
});
/** Parsed stdout of a command harness. */
export type CommandOutput = z.infer<typeof commandOutputSchema>;

/** The protocol as a JSON Schema (what an agent may print), for `schemas/command-output.schema.json`. */
export function commandOutputJsonSchema(): Record<string, unknown> {
  return {
    $id: "command-output.schema.json",
    title: "stdout of a command harness",
    description:
      "One JSON object a command harness prints on stdout per task (it reads the task JSON on stdin: id, input, category, sampleIndex, model).",
    ...(z.toJSONSchema(commandOutputSchema, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >),
  };
}

/** Parses a command harness's stdout; a reason string when it is not one valid JSON object. */
export function parseCommandOutput(
  stdout: string,
): { ok: true; value: CommandOutput } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(stdout.trim());
  } catch {
    return { ok: false, reason: `stdout is not one JSON object: ${excerpt(stdout)}` };
  }
  const parsed = commandOutputSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: issueReason(parsed.error.issues[0]) };
  return { ok: true, value: parsed.data };
}

/**
 * One schema issue as a fix-it reason naming the field: `stdout JSON field 'trace.steps.0.toolCalls.0.name'
 * is required (expected string)`, with the published schema to check against.
 */
function issueReason(issue: z.core.$ZodIssue): string {
  const where =
    issue.path.length === 0 ? "stdout JSON" : `stdout JSON field '${issue.path.join(".")}'`;
  const message = issue.message.replace(/^Invalid input: /, "");
  const missing = /^expected (\w+), received undefined$/.exec(message);
  const what = missing ? `is required (expected ${missing[1]})` : `: ${message}`;
  return `${where}${what.startsWith(":") ? what : ` ${what}`} (see ${schemaName})`;
}

/** A short printable excerpt of untrusted output (its beginning). */
export function excerpt(text: string, max = 300): string {
  const trimmed = text.trim();
  if (trimmed === "") return "(empty)";
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/** The end of untrusted output (where a traceback names its error), at most `max` characters. */
export function tail(text: string, max = 1200): string {
  const trimmed = text.trim();
  if (trimmed === "") return "(empty)";
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}
