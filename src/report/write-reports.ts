import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { GateResult } from "../evolve/gate-result.js";
import { readPromptLog } from "../evolve/prompt-log.js";
import type { EvolveResult } from "../evolve/result-schema.js";
import { readRunRecords } from "../evolve/run-records.js";
import { renderGateComment } from "./gate-comment.js";
import { renderHtml } from "./render-html.js";
import { renderMarkdown } from "./render-markdown.js";

/**
 * Writes the reports of an evolve run beside its result.json: `report.md` and `report.html`
 * (the drill-down reads the run's records.json and prompts.jsonl from `outDir` when it kept
 * them). The conductor (src/evolve) writes only records; its callers (the CLI, the Action, the
 * bench) render them with this. Returns the paths written.
 */
export async function writeEvolveReports(options: {
  outDir: string;
  result: EvolveResult;
  secrets?: string[];
}): Promise<{ markdown: string; html: string }> {
  const { outDir, result, secrets } = options;
  await mkdir(outDir, { recursive: true });
  const markdown = path.join(outDir, "report.md");
  const html = path.join(outDir, "report.html");
  await writeFile(markdown, renderMarkdown(result, { secrets }));
  const records = await readRunRecords(outDir);
  const prompts = await readPromptLog(outDir);
  await writeFile(html, renderHtml({ result, records, prompts }, { secrets }));
  return { markdown, html };
}

/** Writes `gate.md` (the sticky comment's text) beside a gate's gate.json; returns its path. */
export async function writeGateReport(options: {
  outDir: string;
  result: GateResult;
  secrets?: string[];
}): Promise<string> {
  const file = path.join(options.outDir, "gate.md");
  await mkdir(options.outDir, { recursive: true });
  await writeFile(file, renderGateComment(options.result, { secrets: options.secrets }));
  return file;
}
