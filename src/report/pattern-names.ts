import type { EvolveResult } from "../evolve/result-schema.js";
import { escapeHtml } from "./html.js";
import type { ReportIndex } from "./report-index.js";

/** A pattern id as src/diagnose writes it (`patternId`): `p-` and 12 hex digits. */
const patternIdPattern = /\bp-[0-9a-f]{12}\b/g;

/**
 * Escaped text with every pattern id turned into a link to the pattern, shown by its name with
 * the id small beside it (the roles' JSON names patterns by id; readers know them by name). An
 * id the run did not list stays as it is.
 */
export function linkPatternIds(text: string, index: ReportIndex, iteration?: number): string {
  return escapeHtml(text).replace(patternIdPattern, (id) => {
    const ref = index.patternRef(id, iteration);
    return ref
      ? `<a class="pattern-ref" href="#${ref.anchor}">${escapeHtml(ref.name)}</a> <small class="muted">${id}</small>`
      : id;
  });
}

/**
 * Verbatim text (a prompt or a reply exactly as sent) in an escaped `<pre>`, each known pattern id
 * left as it is but made a link to its pattern with the name as its title: the text stays what
 * the model saw, and the id still leads to what it names.
 */
export function preWithPatternIds(options: {
  text: string;
  index: ReportIndex;
  iteration?: number;
  max: number;
}): string {
  const { text, index, iteration, max } = options;
  const shown = text.length > max ? text.slice(0, max) : text;
  const body = escapeHtml(shown).replace(patternIdPattern, (id) => {
    const ref = index.patternRef(id, iteration);
    return ref
      ? `<a class="pattern-id" href="#${ref.anchor}" title="${escapeHtml(ref.name)}">${id}</a>`
      : id;
  });
  const rest =
    text.length > max
      ? `<p class="muted">… ${text.length - max} more characters (see the run's records)</p>`
      : "";
  return `<pre>${body}</pre>${rest}`;
}

/** Pattern id → name over every iteration's diagnosis (a repair round's among them). */
export function patternNameMap(result: Pick<EvolveResult, "iterations">): Map<string, string> {
  const names = new Map<string, string>();
  for (const iteration of result.iterations)
    for (const pattern of iteration.diagnosis?.patterns ?? []) names.set(pattern.id, pattern.name);
  return names;
}

/** Plain text with every known pattern id shown by its name: `answer-format-drift (p-214f50bf8e6b)`. */
export function namePatternIds(text: string, names: ReadonlyMap<string, string>): string {
  return text.replace(patternIdPattern, (id) => {
    const name = names.get(id);
    return name ? `${name} (${id})` : id;
  });
}
