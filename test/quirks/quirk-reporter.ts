import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Writes the quirk matrix (docs/quirks.md) from the test run: one row per test of `test/quirks/`
 * — the side (its describe block), the behaviour and what must happen (the test's name, split at
 * its last `: `), what this run measured (the test's annotation: exit code, held-out accuracy or
 * the message the run stopped with) and the result. Like the reliability matrix, it writes only
 * when every test of the folder ran unfiltered, so a focused run never leaves a partial table.
 */
export default class QuirkMatrixReporter implements Reporter {
  private readonly root = join(import.meta.dirname, "..", "..");
  private readonly folder = "test/quirks";

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const expected = readdirSync(join(this.root, this.folder))
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => `${this.folder}/${name}`);
    const ran = new Map(
      testModules.map((module) => [relative(this.root, module.moduleId), module] as const),
    );
    if (expected.length === 0 || !expected.every((file) => ran.has(file))) return;
    const rows = expected.flatMap((file) => rowsOf(ran.get(file) as TestModule));
    if (rows.some((row) => row.result !== "passed" && row.result !== "failed")) return;
    const doc = join(this.root, "docs", "quirks.md");
    const text = readFileSync(doc, "utf8");
    const start = "<!-- quirk-matrix:start -->";
    const end = "<!-- quirk-matrix:end -->";
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) return;
    const passed = rows.filter((row) => row.result === "passed").length;
    const table = [
      start,
      `${passed} of ${rows.length} rows passed in the last full test run (written by \`test/quirks/quirk-reporter.ts\`; do not edit by hand).`,
      "",
      "| Side | Behaviour | Must | Measured in that run | Result |",
      "|---|---|---|---|---|",
      ...rows.map(
        (row) =>
          `| ${cell(row.side)} | ${cell(row.behaviour)} | ${cell(row.must)} | ${cell(row.measured)} | ${row.result === "passed" ? "✅ passed" : "❌ failed"} |`,
      ),
      "",
    ].join("\n");
    const updated = `${text.slice(0, from)}${table}${text.slice(to)}`;
    if (updated !== text) writeFileSync(doc, updated);
  }
}

interface Row {
  side: string;
  behaviour: string;
  must: string;
  measured: string;
  result: string;
}

function rowsOf(module: TestModule): Row[] {
  return [...module.children.allTests()].map((test) => {
    const suites: string[] = [];
    for (let parent = test.parent; parent.type === "suite"; parent = parent.parent)
      suites.unshift(parent.name);
    const split = test.name.lastIndexOf(": ");
    return {
      side: suites.join(" › "),
      behaviour: split < 0 ? test.name : test.name.slice(0, split),
      must: split < 0 ? "" : test.name.slice(split + 2),
      measured: test
        .annotations()
        .map((annotation) => annotation.message)
        .join("; "),
      result: test.result().state,
    };
  });
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
