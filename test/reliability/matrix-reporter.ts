import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Writes the reliability matrix (docs/reliability.md) from the test run: one row per test of the
 * reliability files (`test/reliability/`, `test/security/`) — the fault (its describe block),
 * the expected behaviour (the test's name), the file and the result this run gave. It writes
 * only when every test of those files ran (a full `npm test`, or `vitest run test/reliability
 * test/security`, unfiltered), so a focused run never leaves a partial table.
 */
export default class ReliabilityMatrixReporter implements Reporter {
  private readonly root = join(import.meta.dirname, "..", "..");
  private readonly folders = ["test/reliability", "test/security"];

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const expected = this.folders.flatMap((folder) =>
      readdirSync(join(this.root, folder))
        .filter((name) => name.endsWith(".test.ts"))
        .map((name) => `${folder}/${name}`),
    );
    const ran = new Map(
      testModules.map((module) => [relative(this.root, module.moduleId), module] as const),
    );
    if (!expected.every((file) => ran.has(file))) return;
    const rows = expected.flatMap((file) => rowsOf(file, ran.get(file) as TestModule));
    // A filtered run (-t) skips rows: it is not the matrix.
    if (rows.some((row) => row.result !== "passed" && row.result !== "failed")) return;
    const readme = join(this.root, "docs", "reliability.md");
    const text = readFileSync(readme, "utf8");
    const start = "<!-- reliability-matrix:start -->";
    const end = "<!-- reliability-matrix:end -->";
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) return;
    const passed = rows.filter((row) => row.result === "passed").length;
    const table = [
      start,
      `${passed} of ${rows.length} rows passed in the last full test run (written by \`test/reliability/matrix-reporter.ts\`; do not edit by hand).`,
      "",
      "| Fault | Expected behaviour | Test | Result |",
      "|---|---|---|---|",
      ...rows.map(
        (row) =>
          `| ${cell(row.fault)} | ${cell(row.behaviour)} | \`${row.file}\` | ${row.result === "passed" ? "✅ passed" : row.result === "failed" ? "❌ failed" : row.result} |`,
      ),
      "",
    ].join("\n");
    const updated = `${text.slice(0, from)}${table}${text.slice(to)}`;
    if (updated !== text) writeFileSync(readme, updated);
  }
}

interface Row {
  fault: string;
  behaviour: string;
  file: string;
  result: string;
}

function rowsOf(file: string, module: TestModule): Row[] {
  const rows: Row[] = [];
  for (const test of module.children.allTests()) {
    const suites: string[] = [];
    for (let parent = test.parent; parent.type === "suite"; parent = parent.parent)
      suites.unshift(parent.name);
    rows.push({
      fault:
        suites.join(" › ") ||
        file.replace(/^.*\//, "").replace(/\.(int\.|property\.)?test\.ts$/, ""),
      behaviour: test.name,
      file,
      result: test.result().state,
    });
  }
  return rows;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
