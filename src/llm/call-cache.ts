import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { canonicalJson } from "../config/canonical-json.js";
import type { ChatProvider, ChatRequest, ChatResponse, UsageTotals } from "./types.js";
import { UsageAccount } from "./usage-accounting.js";

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

/** A stored response, as validated when a cache entry is read back. */
export const chatResponseSchema = z.object({
  content: z.string().nullable(),
  toolCalls: z.array(toolCallSchema),
  finishReason: z.string(),
  usage: z.object({
    promptTokens: z.number().int().min(0),
    completionTokens: z.number().int().min(0),
  }),
  latencyMs: z.number(),
  costUsd: z.number(),
  model: z.string(),
  retries: z.number().int().min(0),
  cached: z.boolean().optional(),
});

const cacheEntrySchema = z.object({
  version: z.literal(1),
  key: z.string(),
  model: z.string(),
  response: chatResponseSchema,
});
type CacheEntry = z.infer<typeof cacheEntrySchema>;

/** Totals of a cached provider: the top level counts only calls that reached the model. */
export type CachedUsageTotals = UsageTotals & {
  /** Calls replayed from disk (their tokens and cost were paid by an earlier run). */
  cached: Omit<UsageTotals, "retries" | "byPurpose">;
};

type Resolved = { response: ChatResponse; fromDisk: boolean };

/** A provider wrapped by {@link withCallCache}. */
export interface CachedProvider extends ChatProvider {
  /** Uncached calls/tokens/cost at the top level (what budgets count), replays under `cached`. */
  totals(): CachedUsageTotals;
}

/**
 * Content address of a call: sha256 of the model and the full request, with object keys
 * sorted and undefined fields dropped, so equal requests hash equally however they were built.
 */
export function callCacheKey(model: string, request: ChatRequest): string {
  return createHash("sha256").update(canonicalJson({ model, request })).digest("hex");
}

/**
 * Wraps a provider so each response is stored on disk under its call key and replayed for an
 * identical request (`latencyMs: 0`, `cached: true`). This is what lets a killed run resume
 * without paying again for LLM calls it already finished. Writes are atomic (temp file +
 * rename); unreadable or invalid entries are ignored and overwritten. `redact` scrubs a response
 * before it is stored (and the caller gets the scrubbed response too, so a fresh run and a
 * replay see the same text): a reply that echoes a secret never reaches the disk.
 */
export function withCallCache(
  provider: ChatProvider,
  dir: string,
  options: { redact?: (response: ChatResponse) => ChatResponse } = {},
): CachedProvider {
  return new CallCache(provider, dir, options.redact ?? ((response: ChatResponse) => response));
}

class CallCache implements CachedProvider {
  readonly model: string;
  readonly baseUrl: string | undefined;
  readonly variant: string | undefined;
  private readonly uncached = new UsageAccount();
  private readonly replayed = new UsageAccount();
  private readonly inFlight = new Map<string, Promise<Resolved>>();

  constructor(
    private readonly provider: ChatProvider,
    private readonly dir: string,
    private readonly redact: (response: ChatResponse) => ChatResponse,
  ) {
    this.model = provider.model;
    this.baseUrl = provider.baseUrl;
    this.variant = provider.variant;
  }

  async chat(request: ChatRequest, options?: { signal?: AbortSignal }): Promise<ChatResponse> {
    const { provider } = this;
    const key = callCacheKey(
      provider.variant ? `${provider.model} ${provider.variant}` : provider.model,
      request,
    );
    // Registered synchronously, so identical concurrent requests share one lookup and at most
    // one upstream call; every sharer but the caller that made it gets a replay.
    const pending = this.inFlight.get(key);
    if (pending) return this.replay(request, (await pending).response);
    const call = this.resolve(key, request, options?.signal);
    this.inFlight.set(key, call);
    try {
      const { response, fromDisk } = await call;
      return fromDisk ? this.replay(request, response) : response;
    } finally {
      this.inFlight.delete(key);
    }
  }

  totals(): CachedUsageTotals {
    const fromCache = this.replayed.totals();
    return {
      ...this.uncached.totals(),
      cached: {
        calls: fromCache.calls,
        promptTokens: fromCache.promptTokens,
        completionTokens: fromCache.completionTokens,
        costUsd: fromCache.costUsd,
      },
    };
  }

  /** Disk hit, or one upstream call whose response is stored. */
  private async resolve(
    key: string,
    request: ChatRequest,
    signal: AbortSignal | undefined,
  ): Promise<Resolved> {
    const hit = await load(this.dir, key);
    if (hit) return { response: hit.response, fromDisk: true };
    const response = this.redact(await this.provider.chat(request, { signal }));
    this.uncached.recordResponse(request.purpose, response);
    await store(this.dir, {
      version: 1,
      key,
      model: this.provider.model,
      response: { ...response, cached: undefined },
    });
    return { response, fromDisk: false };
  }

  private replay(request: ChatRequest, stored: ChatResponse): ChatResponse {
    const response: ChatResponse = { ...stored, latencyMs: 0, retries: 0, cached: true };
    this.replayed.recordResponse(request.purpose, response);
    return response;
  }
}

function entryPath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.json`);
}

async function load(dir: string, key: string): Promise<CacheEntry | undefined> {
  let text: string;
  try {
    text = await readFile(entryPath(dir, key), "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = cacheEntrySchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.key === key ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function store(dir: string, entry: CacheEntry): Promise<void> {
  const path = entryPath(dir, entry.key);
  await mkdir(join(dir, entry.key.slice(0, 2)), { recursive: true });
  const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temp, `${JSON.stringify(entry)}\n`, "utf8");
  await rename(temp, path);
}
