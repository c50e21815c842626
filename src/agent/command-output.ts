import { z } from "zod";
import { agentEventSchema, traceStepSchema } from "./types.js";

/** What a command harness prints on stdout: one JSON object. `trace` parts are optional. */
export const commandOutputSchema = z.object({
  output: z.string(),
  answer: z.string().nullable().optional(),
  trace: z
    .object({
      steps: z.array(traceStepSchema).optional(),
      events: z.array(agentEventSchema).optional(),
      usage: z
        .object({
          promptTokens: z.number().int().min(0).default(0),
          completionTokens: z.number().int().min(0).default(0),
          llmCalls: z.number().int().min(0).default(0),
          costUsd: z.number().min(0).default(0),
        })
        .optional(),
    })
    .optional(),
});
/** Parsed stdout of a command harness. */
export type CommandOutput = z.infer<typeof commandOutputSchema>;

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
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `stdout JSON ${issue.path.join(".") || "value"}: ${issue.message}`,
    };
  }
  return { ok: true, value: parsed.data };
}

/** A short printable excerpt of untrusted output. */
export function excerpt(text: string, max = 300): string {
  const trimmed = text.trim();
  if (trimmed === "") return "(empty)";
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}
