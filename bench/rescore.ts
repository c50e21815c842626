/**
 * `npx tsx bench/rescore.ts DIR [--out FILE] [--json FILE]`: bench.md for a finished bench folder
 * as the current bench would write it, without running anything: every run rescored from the
 * folder's ground truth and journals (src/bench/rescore-folder.ts: ceiling, spend on each probe
 * point, systematic deficiencies left), the comparisons — the time-to-match in wall time,
 * training rollouts and LLM calls — computed again with the bench's own bootstrap settings.
 * Writes the markdown to FILE (else stdout) and, with --json, the rescored bench.json.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { renderBenchMarkdown } from "../src/bench/bench-markdown.js";
import { rescoreBench } from "../src/bench/rescore-folder.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: "string" }, json: { type: "string" } },
});
const dir = positionals[0];
if (!dir) throw new Error("usage: tsx bench/rescore.ts DIR [--out FILE] [--json FILE]");
const result = await rescoreBench(dir);
const markdown = renderBenchMarkdown(result);
if (values.out) await writeFile(values.out, markdown);
else process.stdout.write(markdown);
if (values.json) await writeFile(values.json, `${JSON.stringify(result, null, 2)}\n`);
