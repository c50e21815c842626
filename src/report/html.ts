/** Escapes text for HTML element content and attribute values (all report text is untrusted). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A safe fragment id from any string. */
export function anchorId(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80)}`;
}

const h = escapeHtml;

/** Longest text shown inline for one field; the rest stays in records.json / prompts.jsonl. */
const maxFieldChars = 12_000;

/** Untrusted text in a `<pre>`, escaped and clipped with a note of what was left out. */
export function preText(text: string, max = maxFieldChars): string {
  if (text.length <= max) return `<pre>${h(text)}</pre>`;
  return `<pre>${h(text.slice(0, max))}</pre><p class="muted">… ${text.length - max} more characters (see the run's records)</p>`;
}

/** Inline untrusted text as code. */
export function code(text: string, max = 300): string {
  return `<code>${h(text.length > max ? `${text.slice(0, max)}…` : text)}</code>`;
}

/**
 * A list of (already rendered) links: the first `visible` inline, the rest in a collapsed
 * "+N more" so a pattern with hundreds of members stays readable.
 */
export function collapsedList(items: string[], visible = 8, separator = ", "): string {
  if (items.length <= visible + 1) return items.join(separator) || "—";
  const rest = items.slice(visible);
  return `${items.slice(0, visible).join(separator)} <details class="more"><summary>+${rest.length} more</summary>${rest.join(separator)}</details>`;
}

/** A `<details>` with an id (a link to it opens it) and an escaped-by-caller summary. */
export function detailsBlock(options: {
  id?: string;
  summary: string;
  body: string;
  className?: string;
  attributes?: string;
}): string {
  const id = options.id ? ` id="${options.id}"` : "";
  const cls = options.className ? ` class="${options.className}"` : "";
  return `<details${id}${cls}${options.attributes ?? ""}><summary>${options.summary}</summary>${options.body}</details>`;
}

/** `data-*` filter attributes of an item (values escaped); see html-script.ts. */
export function filterAttributes(group: string, fields: Record<string, string>): string {
  const data = Object.entries(fields)
    .map(([key, value]) => ` data-${key}="${h(value)}"`)
    .join("");
  return ` data-filter-item="${group}"${data}`;
}

/**
 * A search box and selects that filter the items of `group` (html-script.ts): an item shows when
 * its text contains the search and each select's value equals its `data-<key>` (or is empty).
 */
export function filterBar(options: {
  group: string;
  placeholder: string;
  selects: { key: string; label: string; values: string[] }[];
}): string {
  const selects = options.selects
    .filter((select) => select.values.length > 1)
    .map(
      (select) =>
        `<label>${h(select.label)} <select data-filter-select="${options.group}" data-key="${select.key}"><option value="">all</option>${select.values
          .map((value) => `<option value="${h(value)}">${h(value)}</option>`)
          .join("")}</select></label>`,
    )
    .join(" ");
  return `<div class="filter-bar" data-filter-bar="${options.group}"><input type="search" data-filter-input="${options.group}" placeholder="${h(options.placeholder)}" aria-label="${h(options.placeholder)}"> ${selects} <span class="muted" data-filter-count="${options.group}"></span></div>`;
}

/** Sorted distinct values. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}
