import { createHash } from "node:crypto";

/**
 * The report's only script, fixed text (nothing from a run is ever interpolated into it): a link
 * to something collapsed opens it (on hashchange, on load, and when the same link is clicked
 * again), and the filter bars show the items of their group whose text contains the search and
 * whose `data-<key>` equals each select's value. Long lists come in pages (`html-pages.ts`): the
 * pages not shown are gzip + base64 in inert script blocks, decompressed in the browser and
 * inserted when the reader asks for more, searches or filters the group, or follows a link to an
 * item not shown yet. Listeners only — no inline handlers.
 */
export const reportScript = `(function () {
  "use strict";
  function reveal(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
      if (node.hidden && node.hasAttribute("data-filter-item")) node.hidden = false;
    }
  }
  var chains = {};
  function pagesOf(group) {
    return document.querySelectorAll('script[data-page-of="' + group + '"]');
  }
  function decode(text) {
    var binary = atob(text.trim());
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  function updateMore(group) {
    var target = document.querySelector('[data-page-target="' + group + '"]');
    var bar = document.querySelector('[data-page-more="' + group + '"]');
    if (!target || !bar) return;
    var left = pagesOf(group).length;
    if (left === 0) { bar.hidden = true; return; }
    var count = bar.querySelector("[data-page-count]");
    if (count) count.textContent = target.children.length + " of " + target.getAttribute("data-page-total") + " here";
  }
  function loadNext(group) {
    chains[group] = (chains[group] || Promise.resolve()).then(function () {
      var page = pagesOf(group)[0];
      var target = document.querySelector('[data-page-target="' + group + '"]');
      if (!page || !target) return false;
      return decode(page.textContent).then(function (html) {
        target.insertAdjacentHTML("beforeend", html);
        page.remove();
        updateMore(group);
        return true;
      });
    });
    return chains[group];
  }
  function loadAll(group) {
    if (pagesOf(group).length === 0) return chains[group] || Promise.resolve(false);
    return loadNext(group).then(function () { return loadAll(group); });
  }
  function loadEverything() {
    var groups = [];
    document.querySelectorAll("script[data-page-of]").forEach(function (page) {
      var group = page.getAttribute("data-page-of");
      if (groups.indexOf(group) === -1) groups.push(group);
    });
    return Promise.all(groups.map(loadAll));
  }
  function openHash(retried) {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (!target) {
      if (retried !== true && document.querySelector("script[data-page-of]"))
        loadEverything().then(function () { openHash(true); });
      return;
    }
    reveal(target);
    document.querySelectorAll(".targeted").forEach(function (node) { node.classList.remove("targeted"); });
    target.classList.add("targeted");
    target.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", function () { openHash(false); });
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href^="#"]') : null;
    if (link && link.getAttribute("href") === location.hash) setTimeout(function () { openHash(false); }, 0);
    var button = event.target && event.target.closest ? event.target.closest("button[data-page-next], button[data-page-all]") : null;
    if (!button) return;
    var next = button.getAttribute("data-page-next");
    var group = next || button.getAttribute("data-page-all");
    (next ? loadNext(group) : loadAll(group)).then(function () { applyFilter(group); });
  });
  function applyFilter(group) {
    var input = document.querySelector('[data-filter-input="' + group + '"]');
    var query = input ? input.value.trim().toLowerCase() : "";
    var selects = document.querySelectorAll('[data-filter-select="' + group + '"]');
    var items = document.querySelectorAll('[data-filter-item="' + group + '"]');
    var shown = 0;
    items.forEach(function (item) {
      var visible = !query || item.textContent.toLowerCase().indexOf(query) !== -1;
      selects.forEach(function (select) {
        var key = select.getAttribute("data-key");
        if (select.value && item.getAttribute("data-" + key) !== select.value) visible = false;
      });
      item.hidden = !visible;
      if (visible) shown += 1;
    });
    var count = document.querySelector('[data-filter-count="' + group + '"]');
    if (count) count.textContent = shown + " of " + items.length + " shown";
  }
  document.querySelectorAll("[data-filter-bar]").forEach(function (bar) {
    var group = bar.getAttribute("data-filter-bar");
    // A search or a filter covers every item: the pages not shown yet load first.
    var refilter = function () { loadAll(group).then(function () { applyFilter(group); }); };
    bar.addEventListener("input", refilter);
    bar.addEventListener("change", refilter);
    applyFilter(group);
  });
  openHash(false);
})();`;

/** The stylesheet (fixed text). */
export const reportStyle = `:root{color-scheme:light}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1200px;margin:0 auto;padding:0 1.2em 3em;color:#1b1f24;background:#fff}
h1{margin:.6em 0 .2em}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}h3{margin:1.2em 0 .4em}h4{margin:.8em 0 .3em}h5{margin:.6em 0 .2em;font-size:12px;text-transform:uppercase;color:#57606a}
nav.toc{border-bottom:1px solid #d0d7de;padding:.5em 0}nav.toc a{margin-right:1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
table.numeric td:not(:first-child){font-variant-numeric:tabular-nums}.wide{overflow-x:auto}
table.candidates td{min-width:90px}td.hashes{white-space:nowrap}table.candidates td:nth-child(3){min-width:260px}table.candidates ul,td ul{margin:0;padding-left:1.1em}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:.3em 0;max-height:36em}pre.diff{max-height:none}
code{background:#f6f8fa;padding:0 3px;border-radius:3px;word-break:break-word}
details{margin:.3em 0}summary{cursor:pointer}details.more{display:inline}details.more[open]{display:block}
details.rollout,details.call,details.turn{border:1px solid #d0d7de;border-radius:6px;padding:4px 8px}details.rollout[open],details.call[open]{background:#fcfcfd}
details.call{margin-left:1em}
dl.rollout-fields{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:.5em 0}dl.rollout-fields dt{font-weight:600}dl.rollout-fields dd{margin:0;min-width:0}
ol.trace{padding-left:1.4em}ol.trace li{margin:.4em 0}.tool{margin:.2em 0 .2em 1em}.tool-error{color:#9a6700}
.muted{color:#57606a}small{font-size:12px}
.systematic,.accepted,.status-fixed{color:#1a7f37}.model-specific,.status-still-failing{color:#9a6700}.rejected,.status-broken{color:#cf222e}.stopped{color:#57606a}
a.pattern-ref{font-weight:600}
.targeted{outline:3px solid #0969da;outline-offset:2px}
.filter-bar{display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:center;margin:.5em 0;padding:6px 8px;background:#f6f8fa;border-radius:6px}
.filter-bar input[type=search]{min-width:22em;padding:3px 6px}
.page-more{margin:.6em 0}
svg text{font-size:11px;fill:#57606a}svg .axis-title{font-size:12px;fill:#1b1f24}svg .grid{stroke:#eaeef2}
svg .line{fill:none;stroke:#0969da;stroke-width:2}svg circle.batch{fill:#0969da}svg rect.heldout{fill:#bf3989}
svg .accepted-mark line{stroke:#1a7f37;stroke-dasharray:4 3;stroke-width:1.5}svg .accepted-mark path{fill:#1a7f37}`;

/** A CSP source for an inline block: `'sha256-…'` of its exact text. */
function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page's Content-Security-Policy: nothing may load, only the shipped script and stylesheet
 * may run (by hash), no base URL, no form target — an injected tag that escaped escaping would
 * still be inert.
 */
export function reportCsp(): string {
  return `default-src 'none'; script-src ${cspHash(reportScript)}; style-src ${cspHash(reportStyle)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
}
