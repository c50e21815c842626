import { appendFile, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { requestDigest } from "../llm/request-digest.js";
import type { ChatProvider } from "../llm/types.js";
import type { SecretRedactor } from "../safety/secrets.js";

/** The file beside result.json that keeps the refiner's prompts (`report.keepPrompts`). */
export const promptLogFile = "prompts.jsonl";

/**
 * One refiner call as the run kept it: the messages the stage sent (before the endpoint's own
 * capability rewriting), the reply, and whether it was replayed from the call cache. `id` is
 * `requestDigest(messages)`, the id a role turn names in its `callIds`.
 */
export const promptCallSchema = z.object({
  id: z.string(),
  purpose: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  reply: z.string().nullable(),
  /** The call failed (transport): no reply. */
  error: z.string().optional(),
  cached: z.boolean(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});
/** One kept refiner call. */
export type PromptCall = z.infer<typeof promptCallSchema>;

/**
 * prompts.jsonl of a run: every refiner call of the sealed strategy path (roles, failure notes,
 * pattern merges), one scrubbed line each, appended as the call ends so a resumed run keeps the
 * calls of its replayed stages. The llm_judge of the evaluations is never logged: it is not on
 * that path, and the held-out measurements use it.
 */
export class PromptLog {
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(
    private readonly file: string,
    private readonly redactor: SecretRedactor,
  ) {}

  /**
   * Opens the log of a run in `outDir`. A fresh run (no finished stage to replay) starts it
   * empty; with `keep: false` no log is kept and a stale one is removed.
   */
  static async open(options: {
    outDir: string;
    fresh: boolean;
    keep: boolean;
    redactor: SecretRedactor;
  }): Promise<PromptLog | undefined> {
    const file = path.join(options.outDir, promptLogFile);
    if (options.fresh || !options.keep) await rm(file, { force: true });
    return options.keep ? new PromptLog(file, options.redactor) : undefined;
  }

  /** Wraps a provider so each of its calls is logged once it ends. */
  provider(inner: ChatProvider): ChatProvider {
    return {
      model: inner.model,
      baseUrl: inner.baseUrl,
      variant: inner.variant,
      chat: async (request, callOptions) => {
        const base = {
          id: requestDigest(request.messages),
          purpose: request.purpose ?? "refiner",
          messages: request.messages.map((message) => ({
            role: message.role,
            content: message.content ?? "",
          })),
        };
        try {
          const response = await inner.chat(request, callOptions);
          this.append({
            ...base,
            reply: response.content,
            cached: response.cached === true,
            promptTokens: response.usage.promptTokens,
            completionTokens: response.usage.completionTokens,
          });
          return response;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.append({ ...base, reply: null, error: message, cached: false, ...noTokens });
          throw error;
        }
      },
    };
  }

  /** Waits for every logged call to be written; throws the first write failure. */
  async settled(): Promise<void> {
    await this.pending;
    if (this.failure !== undefined) throw this.failure;
  }

  private append(call: PromptCall): void {
    const line = `${JSON.stringify(this.redactor.json(call))}\n`;
    this.pending = this.pending.then(() =>
      appendFile(this.file, line).catch((error: unknown) => {
        this.failure ??= error;
      }),
    );
  }
}

const noTokens = { promptTokens: 0, completionTokens: 0 };

/**
 * The kept calls of a run (empty when none were kept). A line a killed run left half-written is
 * skipped; a call logged twice (a stage re-run after a crash) keeps its last reply, the one the
 * journaled stage used.
 */
export async function readPromptLog(outDir: string): Promise<PromptCall[]> {
  let text: string;
  try {
    text = await readFile(path.join(outDir, promptLogFile), "utf8");
  } catch {
    return [];
  }
  const byId = new Map<string, PromptCall>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let parsed: ReturnType<typeof promptCallSchema.safeParse>;
    try {
      parsed = promptCallSchema.safeParse(JSON.parse(line));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    byId.delete(parsed.data.id);
    byId.set(parsed.data.id, parsed.data);
  }
  return [...byId.values()];
}
