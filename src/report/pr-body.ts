import type { EvolveResult } from "../evolve/result-schema.js";
import { formatDelta, percent } from "./format.js";
import { labelWordsSection } from "./label-words-section.js";
import { costSection, heldoutSection } from "./markdown-measures.js";
import {
  diffSection,
  patternsSection,
  reasoningSection,
  rejectionsSection,
  summarySection,
} from "./markdown-sections.js";
import { codeReachSection, sandboxWarning } from "./sandbox-section.js";
import { scrubSecrets } from "./scrub.js";

/** GitHub's PR body limit is 65,536 characters; we keep a margin. */
export const defaultPrBodyMaxBytes = 60_000;

/** The hidden metadata block's marker. */
export const metadataMarker = "ecdysis-metadata";

/** Options of renderPrBody. */
export interface PrBodyOptions {
  maxBytes?: number;
  /** Where the full report lives (workflow artifact / run page); a placeholder is used when absent. */
  reportUrl?: string;
  runId?: string;
  /** Secret values to scrub (e.g. the API key). */
  secrets?: string[];
}

/** Machine-readable facts kept in the hidden metadata block. */
export interface PrMetadata {
  runId?: string;
  strategy: string;
  configHash: string;
  seedHash: string;
  finalHash: string;
  baseline: { train: number; heldout: number };
  final: { train: number; heldout: number };
  gatePassed: boolean;
}

/** Renders the hidden block; `>` is escaped in the JSON so no string can close the comment. */
export function renderMetadataBlock(metadata: PrMetadata): string {
  return `<!-- ${metadataMarker} ${JSON.stringify(metadata).replace(/>/g, "\\u003e").replace(/--/g, "-\\u002d")} -->`;
}

/** Reads the metadata block back from a PR body (undefined when absent or malformed). */
export function parseMetadataBlock(body: string): PrMetadata | undefined {
  const match = body.match(new RegExp(`<!-- ${metadataMarker} (\\{.*?\\}) -->`, "s"));
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as PrMetadata;
  } catch {
    return undefined;
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The section to give way when the body is `excess` bytes over its cap: among the sections whose
 * own size covers the excess, the least important one — so one oversized section goes first and
 * the diff stays — else the least important of all. Undefined when nothing is over or left.
 */
function sectionToDrop<T extends { text: string; drop?: number }>(
  sections: T[],
  excess: number,
  placeholder: (section: T) => string,
): T | undefined {
  if (excess <= 0) return undefined;
  const droppable = sections
    .filter((section) => section.drop !== undefined)
    .sort((a, b) => (a.drop ?? 0) - (b.drop ?? 0));
  const frees = (section: T) => byteLength(section.text) - byteLength(placeholder(section));
  return droppable.find((section) => frees(section) >= excess) ?? droppable[0];
}

/**
 * The PR title and body for src/github: summary with intervals, patterns, the roles' reasoning
 * and HMS, rejections, label words, diff, cost, and a hidden metadata block. The body stays under
 * `maxBytes`: sections are replaced by a pointer to the full report until it fits — first an
 * oversized one that alone makes room, else the least important (reasoning, then diff, then
 * rejections, then patterns) — so one huge section never costs the reviewer the diff; the
 * summary, the label words, cost and metadata stay.
 */
export function renderPrBody(
  result: EvolveResult,
  options: PrBodyOptions = {},
): { title: string; body: string } {
  const maxBytes = options.maxBytes ?? defaultPrBodyMaxBytes;
  const link = options.reportUrl ?? "{{report-url}}";
  const title = `Ecdysis: evolved harness (held-out ${percent(result.baseline.heldout.accuracy)} → ${percent(result.final.heldout.accuracy)}, ${formatDelta(result.baseline.heldout.accuracy, result.final.heldout.accuracy)})`;
  const metadata = renderMetadataBlock({
    runId: options.runId,
    strategy: result.strategy,
    configHash: result.configHash,
    seedHash: result.harness.seedHash,
    finalHash: result.harness.finalHash,
    baseline: { train: result.baseline.train.accuracy, heldout: result.baseline.heldout.accuracy },
    final: { train: result.final.train.accuracy, heldout: result.final.heldout.accuracy },
    gatePassed: result.gate.passed,
  });
  const labels = labelWordsSection(result, { finalOnly: true });
  const warning = sandboxWarning(result.sandbox);
  const reach = codeReachSection(result.reaches);
  // Order = importance; `drop` = the order in which sections give way to the byte cap.
  const sections: { name: string; text: string; drop?: number }[] = [
    ...(warning ? [{ name: "sandbox", text: warning }] : []),
    { name: "summary", text: summarySection(result) },
    { name: "held-out by category", text: heldoutSection(result), drop: 5 },
    { name: "patterns", text: patternsSection(result), drop: 4 },
    { name: "reasoning", text: reasoningSection(result, { maxRoleChars: 800 }), drop: 1 },
    { name: "rejections", text: rejectionsSection(result), drop: 3 },
    // Never dropped: the reviewer must see the expected answers an edit writes as label words.
    ...(labels ? [{ name: "label words", text: labels }] : []),
    // Never dropped either: what the code edits newly reach for.
    ...(reach ? [{ name: "code reach", text: reach }] : []),
    { name: "diff", text: diffSection(result, 15_000), drop: 2 },
    { name: "cost", text: costSection(result) },
  ];
  const footer = `Full report and traces: ${link}`;
  const scrub = (text: string): string => scrubSecrets(text, options.secrets);
  const assemble = (): string =>
    scrub([...sections.map((section) => section.text), footer, metadata].join("\n\n"));
  const placeholder = (section: { name: string }) =>
    `## ${section.name[0].toUpperCase()}${section.name.slice(1)}\n\n_Omitted to keep this description under GitHub's size limit; see the [full report](${link})._`;
  let body = assemble();
  for (;;) {
    const section = sectionToDrop(sections, byteLength(body) - maxBytes, placeholder);
    if (!section) break;
    section.text = placeholder(section);
    section.drop = undefined;
    body = assemble();
  }
  if (byteLength(body) > maxBytes) {
    // Even the essentials are too long (huge model names or reasons): cut the text, keep the metadata.
    const tail = `\n\n… (truncated; see the [full report](${link}))\n\n${metadata}`;
    let head = body.slice(0, Math.max(0, maxBytes - byteLength(tail)));
    while (byteLength(head) + byteLength(tail) > maxBytes) head = head.slice(0, -64);
    body = head + tail;
  }
  return { title: scrub(title), body };
}
