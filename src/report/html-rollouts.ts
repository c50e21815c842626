import type { RolloutRecord } from "../eval/types.js";
import type { TraceExcerpt } from "../evolve/result-schema.js";
import { code, distinct, filterAttributes, filterBar, escapeHtml as h, preText } from "./html.js";
import { addressingEdits } from "./html-patterns.js";
import { taskStatus } from "./html-tasks.js";
import { type ReportIndex, rolloutAnchor, taskAnchor } from "./report-index.js";
import { plural } from "./wording.js";

function expectedText(expected: unknown): string {
  return typeof expected === "string" ? expected : JSON.stringify(expected, null, 1);
}

function traceSteps(steps: TraceExcerpt["steps"]): string {
  const items = steps.map(
    (step, index) =>
      `<li><small class="muted">step ${index + 1}</small>${step.assistant === null ? " <em>(no text)</em>" : preText(step.assistant)}${step.toolCalls
        .map(
          (call) =>
            `<div class="tool${call.error ? " tool-error" : ""}">${call.error ? "⚠ " : ""}${code(`${call.name}(${call.arguments})`, 2000)} → ${preText(call.result, 4000)}</div>`,
        )
        .join("")}</li>`,
  );
  return items.length
    ? `<ol class="trace">${items.join("")}</ol>`
    : "<p><em>No step recorded.</em></p>";
}

function field(name: string, body: string): string {
  return `<dt>${h(name)}</dt><dd>${body}</dd>`;
}

/** The task's outcome under the seed and the final harness (train measures of records.json). */
function taskNow(taskId: string, index: ReportIndex): string {
  const train = index.records?.measures.train;
  const seed = train?.seed.tasks.find((task) => task.taskId === taskId);
  const final = train?.final.tasks.find((task) => task.taskId === taskId);
  if (!seed && !final) return "<em>not measured</em>";
  const status = taskStatus(seed, final);
  return `<span class="status-${status.replace(" ", "-")}">${h(status)}</span> (seed ${seed?.pass ? "pass" : "fail"}, final ${final?.pass ? "pass" : "fail"}) — <a href="#${taskAnchor(taskId)}">task row</a>`;
}

function rolloutBody(record: RolloutRecord, index: ReportIndex): string {
  const task = index.tasks.get(record.taskId);
  const patterns = index.patternsOf(record.key);
  const usage = record.trace.usage;
  const steps = record.trace.steps.length;
  const events = record.trace.events.map(
    (event) =>
      `<li><code>${h(event.kind)}</code> ${event.step < steps ? `at step ${event.step + 1}` : "after the last step"}${event.detail ? `: ${h(event.detail)}` : ""}</li>`,
  );
  return `<dl class="rollout-fields">${[
    field("Task input", task ? preText(task.input) : "<em>not kept</em>"),
    field("Expected", task ? preText(expectedText(task.expected)) : "<em>not kept</em>"),
    field("Output", preText(record.output)),
    field(
      "Extracted answer",
      record.answer === null ? "<em>none found</em>" : code(record.answer, 2000),
    ),
    field(
      "Scorer",
      `<span class="rejected">${h(record.verdict.reason)}</span> (score ${record.verdict.score})`,
    ),
    field("Events", events.length ? `<ul>${events.join("")}</ul>` : "none"),
    field(
      "Patterns",
      patterns.length
        ? patterns
            .map(
              (ref) =>
                `<a class="pattern-ref" href="#${ref.anchor}">${h(ref.name)}</a> <small class="muted">(iteration ${ref.record})</small>`,
            )
            .join(", ")
        : "none",
    ),
    field(
      "Edits for its patterns",
      addressingEdits(
        patterns.map((ref) => ref.id),
        index,
      ),
    ),
    field("Task now", taskNow(record.taskId, index)),
    field(
      "Rollout",
      `harness ${h(index.harnessLabel(record.harnessHash))} <code>${h(record.harnessHash.slice(0, 12))}</code>, sample ${record.sampleIndex + 1}, model <code>${h(record.model)}</code>, ${plural(usage.llmCalls, "call")}, ${plural(usage.promptTokens + usage.completionTokens, "token")}`,
    ),
  ].join(
    "",
  )}</dl><h4>Trace</h4>${traceSteps(record.trace.steps)}${record.trace.stderr ? `<h4>stderr</h4>${preText(record.trace.stderr)}` : ""}`;
}

function rolloutDetails(record: RolloutRecord, index: ReportIndex): string {
  const harness = index.harnessLabel(record.harnessHash);
  const patterns = index.patternsOf(record.key).map((ref) => ref.name);
  const attributes = filterAttributes("rollouts", {
    harness,
    category: record.category,
    reason: record.verdict.reason,
  });
  const events = [...new Set(record.trace.events.map((event) => event.kind))];
  return `<details id="${rolloutAnchor(record.key)}" class="rollout"${attributes}><summary>${code(record.taskId, 120)} · ${h(record.category)} · <span class="rejected">${h(record.verdict.reason)}</span> · ${h(harness)}${events.length ? ` · ${h(events.join(", "))}` : ""}${patterns.length ? ` · <span class="muted">${h([...new Set(patterns)].join(", "))}</span>` : ""}</summary>${rolloutBody(record, index)}</details>`;
}

/** A trace excerpt of result.json, for a run that kept no records.json (an older Ecdysis). */
function excerptDetails(excerpt: TraceExcerpt): string {
  return `<details id="${rolloutAnchor(excerpt.key)}" class="rollout"${filterAttributes("rollouts", { category: excerpt.category })}><summary>${code(excerpt.taskId, 120)} · ${h(excerpt.category)} · <span class="rejected">${h(excerpt.verdict.reason)}</span>${excerpt.events.length ? ` · ${h(excerpt.events.join(", "))}` : ""}</summary><dl class="rollout-fields">${field("Output", preText(excerpt.output))}${field("Extracted answer", excerpt.answer === null ? "<em>none found</em>" : code(excerpt.answer))}</dl><h4>Trace</h4>${traceSteps(excerpt.steps)}</details>`;
}

/**
 * Every failing train rollout the run names (pattern members, the seed's and the final
 * harness's failures), each a collapsed drill-down: task input, expected answer, output,
 * extracted answer, scorer reason, events, patterns, and the trace step by step. Filterable by
 * harness, category and scorer reason; searchable over all of it.
 */
export function rolloutsHtml(index: ReportIndex): string {
  const records = [...index.rollouts.values()].sort(
    (a, b) =>
      index.harnessRank(a.harnessHash) - index.harnessRank(b.harnessHash) ||
      a.taskId.localeCompare(b.taskId) ||
      a.sampleIndex - b.sampleIndex,
  );
  const head = `<section id="rollouts"><h2>Failing rollouts</h2>`;
  if (records.length === 0) {
    const excerpts = [
      ...new Map(
        index.result.iterations
          .flatMap((iteration) => iteration.traces)
          .map((trace) => [trace.key, trace]),
      ).values(),
    ];
    const note = index.records
      ? "<p>No train rollout failed.</p>"
      : "<p>This run kept no records.json: only the pattern examples of result.json are shown, without their task input and expected answer.</p>";
    return `${head}${note}${excerpts.map(excerptDetails).join("")}</section>`;
  }
  const missing = index.records?.missing.length
    ? `<p class="muted">${index.records.missing.length} named rollouts were no longer in the rollout cache.</p>`
    : "";
  const bar = filterBar({
    group: "rollouts",
    placeholder: "Search rollouts (task id, input, output, trace)",
    selects: [
      {
        key: "harness",
        label: "Harness",
        values: distinct(records.map((record) => index.harnessLabel(record.harnessHash))),
      },
      {
        key: "category",
        label: "Category",
        values: distinct(records.map((record) => record.category)),
      },
      {
        key: "reason",
        label: "Scorer reason",
        values: distinct(records.map((record) => record.verdict.reason)),
      },
    ],
  });
  return `${head}<p>Every failing train rollout the run names: the members of each pattern, and the failures of the seed and the final harness. Click one to see what the agent was asked, what was expected, what it answered, and its trace.</p>${missing}${bar}${records.map((record) => rolloutDetails(record, index)).join("")}</section>`;
}
