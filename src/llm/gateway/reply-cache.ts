import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { canonicalJson } from "../../config/canonical-json.js";
import type { WireApi, WireBody } from "./wire.js";

/** A reply kept by the gateway: the endpoint's body and what it cost when it was paid for. */
export const storedReplySchema = z.object({
  version: z.literal(1),
  key: z.string(),
  api: z.string(),
  model: z.string(),
  body: z.unknown(),
  usage: z.object({
    promptTokens: z.number().int().min(0),
    completionTokens: z.number().int().min(0),
  }),
  costUsd: z.number(),
});
/** One cache entry on disk. */
export type StoredReply = z.infer<typeof storedReplySchema>;

/**
 * The cache key of an agent's call: sha256 of the API, the served model (and its variant), the
 * body without its streaming fields (a streamed and a plain call get the same reply), the
 * rollout's sample index and which occurrence of that body this is within the rollout. The
 * sample keeps the samples of a task apart even when an agent sends the same body for each (a
 * majority vote must not see one answer n times); the occurrence does the same for an agent
 * that asks the same thing twice in one rollout. A resumed or retried rollout makes the same
 * calls in the same order, so each one replays.
 */
export function replyCacheKey(input: {
  api: WireApi;
  model: string;
  body: WireBody;
  sampleIndex: number;
  occurrence: number;
}): string {
  const { stream: _stream, stream_options: _options, ...body } = input.body;
  return createHash("sha256")
    .update(canonicalJson({ ...input, body, gateway: 1 }))
    .digest("hex");
}

/** The gateway's replies on disk, `<dir>/<key[0..2]>/<key>.json` (temp file + rename). */
export class ReplyCache {
  constructor(private readonly dir: string) {}

  /** The stored reply of `key`, or undefined (a missing, unreadable or invalid file is a miss). */
  async get(key: string): Promise<StoredReply | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const parsed = storedReplySchema.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.key === key ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a reply atomically: a reader sees the whole entry or none. */
  async put(entry: StoredReply): Promise<void> {
    const path = this.path(entry.key);
    await mkdir(join(this.dir, entry.key.slice(0, 2)), { recursive: true });
    const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify(entry)}\n`, "utf8");
    await rename(temp, path);
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
