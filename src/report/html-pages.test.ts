import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressingPager } from "./html-pages.js";

const pageData = (html: string) =>
  [...html.matchAll(/data-page-items="\d+">([^<]*)<\/script>/g)].map((match) =>
    gunzipSync(Buffer.from(match[1], "base64")).toString("utf8"),
  );

describe("compressingPager", () => {
  const items = Array.from({ length: 7 }, (_, index) => `<div>item ${index} secret-value</div>`);
  const scrub = (html: string) => html.replaceAll("secret-value", "***");

  it("keeps a page inline and the rest compressed, every page scrubbed", () => {
    const { pager, fill } = compressingPager({ pageSize: 3, scrub });
    const paged = pager({ group: "rollouts", items, container: "div" });
    const html = fill(`<p>secret-value</p>${paged.body}${paged.trailer}`);
    expect(html).not.toContain("secret-value");
    expect(html).toContain("<div>item 2 ***</div>");
    expect(html).not.toContain("item 3");
    expect(pageData(html)).toEqual([
      "<div>item 3 ***</div><div>item 4 ***</div><div>item 5 ***</div>",
      "<div>item 6 ***</div>",
    ]);
  });

  it("puts the pages in whatever the secrets are, even ones that spell part of a mark", () => {
    // Every 4-hex-digit value: some of them occur in any random hex mark.
    const secrets = Array.from({ length: 0x10000 }, (_, n) => n.toString(16).padStart(4, "0"));
    const scrubAll = (html: string) =>
      secrets.reduce((text, secret) => text.replaceAll(secret, "***"), html);
    const { pager, fill } = compressingPager({ pageSize: 3, scrub: scrubAll });
    const rows = items.map((_, index) => `<tr>item ${index} x</tr>`);
    const paged = pager({ group: "tasks", items: rows, container: "tbody" });
    const html = fill(`${paged.body}${paged.trailer}`);
    expect(pageData(html)).toEqual([
      "<tr>item 3 x</tr><tr>item 4 x</tr><tr>item 5 x</tr>",
      "<tr>item 6 x</tr>",
    ]);
    expect(html).not.toMatch(/ecdysis-page-[0-9a-f]+/);
  });

  it("leaves a short list inline, with no pages", () => {
    const { pager, fill } = compressingPager({ pageSize: 10, scrub });
    const paged = pager({ group: "rollouts", items, container: "div" });
    expect(paged.trailer).toBe("");
    expect(fill(paged.body)).toContain("item 6 ***");
  });
});
