/**
 * Re-renders `bench.md` (and, unless --no-readme, the performance section of docs/performance.md) from an
 * existing `bench.json`, without re-running anything: `tsx bench/render.ts docs/bench/standard.json`.
 * Use it after a change to the report format; the figures stay those of the recorded run.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  benchResultSchema,
  renderBenchMarkdown,
  renderReadmeSection,
  replaceReadmeSection,
} from "../src/bench/index.js";

const root = path.resolve(import.meta.dirname, "..");
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "no-readme": { type: "boolean", default: false } },
});
const file = path.resolve(positionals[0] ?? path.join(root, "docs", "bench", "standard.json"));
const result = benchResultSchema.parse(JSON.parse(await readFile(file, "utf8")));
const markdown = file.replace(/\.json$/, ".md");
await writeFile(markdown, renderBenchMarkdown(result));
process.stdout.write(`wrote ${markdown}\n`);
if (!values["no-readme"]) {
  const readmePath = path.join(root, "docs", "performance.md");
  const readme = await readFile(readmePath, "utf8");
  const link = path.relative(path.join(root, "docs"), markdown);
  await writeFile(
    readmePath,
    replaceReadmeSection(readme, renderReadmeSection(result, { fullResults: link })),
  );
  process.stdout.write(`updated ${readmePath}\n`);
}
