import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { evaluate } from "./evaluate.js";
import { RecordsSpool } from "./records-spool.js";
import { exactScorer } from "./scorers/exact-scorer.js";
import { EchoAgent } from "./testing/echo-agent.js";
import { askedNumber, fakeHarness, numberedTasks } from "./testing/fixtures.js";

describe("RecordsSpool", () => {
  it("writes records.jsonl in task and sample order from disk, as evaluate returned them, and leaves no spool", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-spool-"));
    const spool = await RecordsSpool.open(dir);
    const provider = new ScriptedProvider(
      (request) => ({ content: askedNumber(String(request.messages[0].content)) }),
      "m",
    );
    const { result, records } = await evaluate({
      tasks: numberedTasks(12).reverse(),
      harness: fakeHarness(),
      provider,
      adapter: new EchoAgent(),
      scorer: () => exactScorer(),
      samples: 2,
      concurrency: 5,
      split: "train",
      onRecord: (record) => spool.add(record),
    });
    await spool.write(join(dir, "records.jsonl"), [result]);
    const lines = (await readFile(join(dir, "records.jsonl"), "utf8")).trimEnd().split("\n");
    const expected = [...records]
      .sort(
        (a, b) =>
          (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0) || a.sampleIndex - b.sampleIndex,
      )
      .map((record) => JSON.stringify(record));
    expect(lines).toEqual(expected);
    expect(await readdir(dir)).toEqual(["records.jsonl"]);
  });
});
