import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";

/** `DIR/shard.json`, written by `ecdysis eval --shard I/N`: which shard the folder holds (0-based). */
export const shardMarkerSchema = z
  .object({ index: z.number().int().min(0), count: z.number().int().positive() })
  .strict()
  .refine((value) => value.index < value.count, { message: "index must be below count" });

/** Which shard of how many an eval output folder holds (`index` is 0-based). */
export type ShardMarker = z.infer<typeof shardMarkerSchema>;

const markerFile = (dir: string) => join(dir, "shard.json");

/** Records the shard an eval output folder holds, or removes a stale marker for an unsharded run. */
export async function writeShardMarker(dir: string, shard: ShardMarker | undefined): Promise<void> {
  if (shard === undefined) await rm(markerFile(dir), { force: true });
  else await writeFile(markerFile(dir), `${JSON.stringify(shard)}\n`);
}

/** Reads `DIR/shard.json`; undefined when the folder has none (an older or unsharded run). */
export async function readShardMarker(dir: string): Promise<ShardMarker | undefined> {
  let text: string;
  try {
    text = await readFile(markerFile(dir), "utf8");
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = shardMarkerSchema.safeParse(value);
  if (!parsed.success) throw new InputError(markerFile(dir), "not a shard marker written by eval");
  return parsed.data;
}

/**
 * Checks that the shard folders given to `merge` are all the shards of one run, each once: a
 * merge of some shards would silently report the accuracy of part of the tasks. Folders
 * without markers (older outputs) are accepted as they are.
 */
export function checkShardsComplete(shards: { dir: string; marker?: ShardMarker }[]): void {
  const marked = shards.filter((shard) => shard.marker !== undefined);
  if (marked.length === 0) return;
  const unmarked = shards.find((shard) => shard.marker === undefined);
  if (unmarked) {
    throw new InputError(unmarked.dir, "holds no shard.json while the other folders are shards");
  }
  const count = marked[0].marker?.count ?? 0;
  const seen = new Map<number, string>();
  for (const { dir, marker } of marked) {
    if (marker === undefined) continue;
    if (marker.count !== count) {
      throw new InputError(
        dir,
        `is shard ${marker.index + 1}/${marker.count}, but ${marked[0].dir} is one of ${count}`,
      );
    }
    const earlier = seen.get(marker.index);
    if (earlier !== undefined) {
      throw new InputError(dir, `is shard ${marker.index + 1}/${count} again (as ${earlier})`);
    }
    seen.set(marker.index, dir);
  }
  const missing = [];
  for (let index = 0; index < count; index++) if (!seen.has(index)) missing.push(index + 1);
  if (missing.length > 0) {
    throw new InputError(
      "ecdysis merge",
      `shard ${missing.map((index) => `${index}/${count}`).join(", ")} missing: give all ${count} shard folders of the run`,
    );
  }
}
