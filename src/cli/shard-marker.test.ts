import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { readShardMarker, writeShardMarker } from "./shard-marker.js";

describe("shard marker", () => {
  it("round-trips, reads a missing marker as undefined and removes a stale one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-shard-marker-"));
    expect(await readShardMarker(dir)).toBeUndefined();
    await writeShardMarker(dir, { index: 1, count: 3 });
    expect(await readShardMarker(dir)).toEqual({ index: 1, count: 3 });
    await writeShardMarker(dir, undefined);
    expect(await readShardMarker(dir)).toBeUndefined();
  });

  it.each(['{"index": 3, "count": 3}', "{not json", ""])(
    "reports a damaged marker (%j) as an InputError naming the file",
    async (text) => {
      const dir = await mkdtemp(join(tmpdir(), "ecdysis-shard-marker-"));
      await writeFile(join(dir, "shard.json"), text);
      const error = await readShardMarker(dir).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toContain("shard.json");
    },
  );
});
