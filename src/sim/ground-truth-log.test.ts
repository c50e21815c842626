import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GroundTruthLog } from "./ground-truth-log.js";

const entry = (request: number) => ({
  request,
  model: "sim-1",
  seed: 0,
  role: "agent",
  key: null,
  task: null,
  hits: [],
});

describe("GroundTruthLog", () => {
  let dir = "";
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("appends lines in order", async () => {
    dir = await mkdtemp(join(tmpdir(), "ecdysis-gt-"));
    const log = new GroundTruthLog(join(dir, "nested", "truth.jsonl"));
    log.write(entry(1));
    log.write(entry(2));
    await log.flush();
    const lines = (await readFile(join(dir, "nested", "truth.jsonl"), "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).request)).toEqual([1, 2]);
  });

  it("keeps a write failure for flush instead of rejecting in the background", async () => {
    dir = await mkdtemp(join(tmpdir(), "ecdysis-gt-"));
    // The path is an existing folder: appendFile fails with EISDIR.
    const log = new GroundTruthLog(dir);
    log.write(entry(1));
    log.write(entry(2));
    // Let the queued writes settle; an unhandled rejection here would fail the run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(log.flush()).rejects.toMatchObject({ code: "EISDIR" });
  });
});
