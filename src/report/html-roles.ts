import type { PromptCall } from "../evolve/prompt-log.js";
import type { IterationRecord } from "../evolve/result-schema.js";
import { type RefinementRecord, refinementSummary } from "../refine/refinement-record.js";
import { compactJson } from "./format.js";
import { detailsBlock, escapeHtml as h } from "./html.js";
import { linkPatternIds, preWithPatternIds } from "./pattern-names.js";
import { roleTurns } from "./records.js";
import { callAnchor, candidateAnchor, type ReportIndex } from "./report-index.js";
import { recordKey, recordTitle } from "./validation-stages.js";
import { resolvePlurals } from "./wording.js";

const maxPromptChars = 30_000;

/** One kept call: its messages and reply, escaped; the first rendering carries the anchor. */
function callDetails(options: {
  call: PromptCall;
  index: ReportIndex;
  rendered: Set<string>;
  label?: string;
  iteration?: number;
}): string {
  const { call, index, rendered, label, iteration } = options;
  const pre = (text: string) => preWithPatternIds({ text, index, iteration, max: maxPromptChars });
  const first = !rendered.has(call.id);
  rendered.add(call.id);
  const title = `${h(label ?? call.purpose)} call <code>${h(call.id)}</code>${call.cached ? " (replayed from the call cache)" : ""} · ${call.promptTokens + call.completionTokens} tokens`;
  if (!first) return `<p><a href="#${callAnchor(call.id)}">${title}</a> (shown above)</p>`;
  const messages = call.messages
    .map((message) => `<h5>${h(message.role)}</h5>${pre(message.content)}`)
    .join("");
  const reply = call.error
    ? `<p class="rejected">failed: ${h(call.error)}</p>`
    : `<h5>reply</h5>${call.reply === null ? "<p><em>(no text)</em></p>" : pre(call.reply)}`;
  return detailsBlock({
    id: callAnchor(call.id),
    className: "call",
    summary: title,
    body: `${messages}${reply}`,
  });
}

function turnCalls(options: {
  ids: readonly string[];
  index: ReportIndex;
  rendered: Set<string>;
  iteration: number;
}): string {
  const { ids, index, rendered, iteration } = options;
  if (ids.length === 0) return "";
  if (index.calls.size === 0)
    return `<p class="muted">Prompts not kept (report.keepPrompts: false, or a run before they were kept).</p>`;
  return ids
    .map((id, attempt) => {
      const call = index.calls.get(id);
      const label = attempt === 0 ? "the" : `repair ${attempt}:`;
      return call
        ? callDetails({ call, index, rendered, label, iteration })
        : `<p class="muted">call <code>${h(id)}</code> not kept</p>`;
    })
    .join("");
}

function refinementHtml(options: {
  refinement: RefinementRecord;
  index: ReportIndex;
  iteration: number;
  rendered: Set<string>;
}): string {
  const { refinement, index, iteration, rendered } = options;
  const turns = roleTurns(refinement).map((turn, position) => {
    const record = refinement.turns[position];
    const output = linkPatternIds(compactJson(turn.output, 8000), index, iteration);
    const body = `<p class="muted">${record.evidenceChars} characters of evidence; its reply:</p><pre>${output}</pre>${turnCalls({ ids: record.callIds ?? [], index, rendered, iteration })}`;
    return detailsBlock({
      className: "turn",
      summary: `<strong>${h(turn.role)}</strong> (round ${turn.round}) <span class="muted">— ${h(resolvePlurals(record.input))}</span>${record.error ? ` <span class="rejected">— ${h(record.error)}</span>` : ""}`,
      body,
    });
  });
  return `<p><strong>HMS</strong> (${refinement.rounds.length} round${refinement.rounds.length === 1 ? "" : "s"}, ${h(refinement.outcome)}): ${linkPatternIds(refinementSummary(refinement), index, iteration)}</p>${turns.join("")}`;
}

function iterationHtml(
  iteration: IterationRecord,
  index: ReportIndex,
  rendered: Set<string>,
): string {
  const key = recordKey(iteration);
  const main = iteration.refinement
    ? refinementHtml({
        refinement: iteration.refinement,
        index,
        iteration: iteration.index,
        rendered,
      })
    : "<p>No refinement ran.</p>";
  return `<section id="iteration-${key}" class="iteration"><h3>${h(recordTitle(iteration))}: <span class="${iteration.verdict}">${h(iteration.verdict)}</span> <small><a href="#${candidateAnchor(key)}">candidate row</a></small></h3><p>${h(iteration.reason)}</p>${main}</section>`;
}

/** Calls not made by a role turn (failure notes, pattern merges), grouped by purpose, collapsed. */
function otherCalls(index: ReportIndex, rendered: Set<string>): string {
  const rest = [...index.calls.values()].filter((call) => !rendered.has(call.id));
  if (rest.length === 0) return "";
  const byPurpose = new Map<string, PromptCall[]>();
  for (const call of rest)
    byPurpose.set(call.purpose, [...(byPurpose.get(call.purpose) ?? []), call]);
  const shown = 200;
  const groups = [...byPurpose.entries()].map(([purpose, calls]) =>
    detailsBlock({
      summary: `${h(purpose)}: ${calls.length} call${calls.length === 1 ? "" : "s"}`,
      body:
        calls
          .slice(0, shown)
          .map((call) => callDetails({ call, index, rendered }))
          .join("") +
        (calls.length > shown
          ? `<p class="muted">+${calls.length - shown} more in prompts.jsonl</p>`
          : ""),
    }),
  );
  return `<h3 id="other-calls">Other refiner calls</h3>${groups.join("")}`;
}

/**
 * The roles' work per iteration: the HMS, each role turn with what it was shown and said (pattern
 * ids linked by name), and — when the run kept them — each call's prompt and reply.
 */
export function rolesHtml(index: ReportIndex): string {
  const rendered = new Set<string>();
  const iterations = index.result.iterations
    .map((iteration) => iterationHtml(iteration, index, rendered))
    .join("");
  return `<section id="refinement"><h2>Refinement</h2>${iterations || "<p>No iteration ran.</p>"}${otherCalls(index, rendered)}</section>`;
}
