import * as core from "@actions/core";

/** Rows describing what the Action did with GitHub, appended below the core's summary. */
export interface SummaryFacts {
  mode: string;
  outputs: Record<string, string>;
  notes: string[];
  /** What failed (each also fails the step). */
  problems?: string[];
}

/** The Markdown the job summary gets: the stage's own summary, then a table of outputs. */
export function renderJobSummary(options: { markdown: string; facts: SummaryFacts }): string {
  const rows = Object.entries(options.facts.outputs)
    .filter(([, value]) => value !== "")
    .map(([name, value]) => `| \`${name}\` | ${value.replace(/\|/g, "\\|")} |`);
  const parts = [options.markdown.trim()];
  const problems = options.facts.problems ?? [];
  if (problems.length > 0)
    parts.push(
      problems.map((problem) => `> **Failed:** ${problem.replace(/\n/g, " ")}`).join("\n>\n"),
    );
  if (options.facts.notes.length > 0)
    parts.push(options.facts.notes.map((note) => `> ${note}`).join("\n>\n"));
  if (rows.length > 0) parts.push(["| output | value |", "|---|---|", ...rows].join("\n"));
  return `${parts.filter((part) => part !== "").join("\n\n")}\n`;
}

/**
 * Write the job summary (every run, also failed ones). Without `GITHUB_STEP_SUMMARY` (a local
 * run) it only warns.
 */
export async function writeJobSummary(options: {
  markdown: string;
  facts: SummaryFacts;
  scrub: (text: string) => string;
}): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    core.warning("GITHUB_STEP_SUMMARY is not set: no job summary written");
    return;
  }
  try {
    await core.summary.addRaw(options.scrub(renderJobSummary(options))).write();
  } catch (error) {
    core.warning(`job summary not written: ${(error as Error).message}`);
  }
}

/** Run `task` inside a collapsible log group. */
export function logGroup<T>(name: string, task: () => Promise<T>): Promise<T> {
  return core.group(name, task);
}
