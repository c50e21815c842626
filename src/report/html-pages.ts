import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { escapeHtml as h } from "./html.js";

/**
 * Puts the items of a long list (a filter group's failing rollouts, task rows) into the page in
 * pages: the first inline, the others gzip-compressed and base64-encoded in inert
 * `<script type="application/x-ecdysis-page">` blocks that the report's script decompresses and
 * inserts when the reader asks for more, searches or filters the group, or follows a link to an
 * item not shown yet. report.html stays one self-contained file (nothing loads from anywhere),
 * and at 20,000 tasks it stays a few megabytes instead of tens. Each page is scrubbed of the
 * run's secrets before it is compressed, as the page is: compressed text hides from a scrub of
 * the whole file.
 */
export type Pager = (options: {
  group: string;
  items: string[];
  /** The element holding the items (`div`, `tbody`). */
  container: "div" | "tbody";
}) => {
  /** The container with the inline items. */
  body: string;
  /** What goes after the container (outside a table): the "show more" bar and the pages. */
  trailer: string;
};

/** Every item inline: the default when nothing is long. */
export const inlinePager: Pager = ({ group, items, container }) => ({
  body: `<${container} data-page-target="${h(group)}" data-page-total="${items.length}">${items.join("")}</${container}>`,
  trailer: "",
});

/** Default items per page. */
const defaultPageSize = 200;

/**
 * A pager that keeps `pageSize` items inline and compresses the rest, page by page (each page
 * scrubbed before it is compressed). `fill` scrubs the whole file and puts the page data in: a
 * scrub must not touch base64 (a short secret value could occur in it by chance).
 */
export function compressingPager(options: { pageSize?: number; scrub: (html: string) => string }): {
  pager: Pager;
  fill(html: string): string;
} {
  const size = options.pageSize ?? defaultPageSize;
  const data: string[] = [];
  // A fresh random mark per render: run text cannot spell it, and it never reaches the output.
  const mark = `ecdysis-page-${randomBytes(12).toString("hex")}`;
  const pager: Pager = ({ group, items, container }) => {
    if (items.length <= size) return inlinePager({ group, items, container });
    const name = h(group);
    const pages: string[] = [];
    for (let start = size; start < items.length; start += size) {
      const html = options.scrub(items.slice(start, start + size).join(""));
      data.push(gzipSync(html, { level: 6 }).toString("base64"));
      pages.push(
        `<script type="application/x-ecdysis-page" data-page-of="${name}" data-page-items="${Math.min(size, items.length - start)}">${mark}:${data.length - 1}:</script>`,
      );
    }
    const body = `<${container} data-page-target="${name}" data-page-total="${items.length}">${items.slice(0, size).join("")}</${container}>`;
    const more = `<p class="page-more" data-page-more="${name}"><span class="muted" data-page-count="${name}">${size} of ${items.length} here</span> <button type="button" data-page-next="${name}">Show ${size} more</button> <button type="button" data-page-all="${name}">Show all</button></p>`;
    return { body, trailer: `${more}${pages.join("")}` };
  };
  // Split at the marks and scrub only the text between them: a short secret value could occur
  // in a mark by chance, and a secret cannot span one (nobody knows the mark).
  const fill = (html: string) =>
    html
      .split(new RegExp(`${mark}:(\\d+):`))
      .map((part, at) => (at % 2 === 1 ? (data[Number(part)] ?? "") : options.scrub(part)))
      .join("");
  return { pager, fill };
}
