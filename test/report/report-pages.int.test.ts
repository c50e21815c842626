import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../src/report/render-html.js";
import { rolloutAnchor, taskAnchor } from "../../src/report/report-index.js";
import { danglingLinks, goToHash, isOpen } from "./in-page.js";
import {
  chromiumOrSkip,
  launchChromium,
  type OpenedReport,
  openReport,
  type QuickstartRun,
  runQuickstart,
  skipNote,
} from "./report-browser.js";

// report.html in pages (issue #28: at 20,000 tasks every failing rollout inline made a 33.6 MB
// file): a real quickstart run rendered with pages of 4 items, so its failing rollouts and task
// rows come in several compressed pages, opened in headless Chromium as a reader would.

const chromiumPath = chromiumOrSkip();
const pageSize = 4;

let browser: Browser;
let run: QuickstartRun;
let dir: string;
let opened: OpenedReport;
let page: Page;
/** A failing rollout on the last page, and a word of its output kept out as a secret. */
let last: { key: string; taskId: string };
let secret: string;

const count = (selector: string) => page.locator(selector).count();

describe.skipIf(!chromiumPath)(
  `report.html in pages, in headless Chromium${chromiumPath ? "" : ` — ${skipNote}`}`,
  () => {
    beforeAll(async () => {
      [run, browser] = await Promise.all([runQuickstart(), launchChromium(chromiumPath as string)]);
      dir = await mkdtemp(join(tmpdir(), "ecdysis-report-pages-"));
      // The order the report lists them in: seed first, then by task id.
      const seedHash = run.result.harness.seedHash;
      const listed = [...run.records.rollouts].sort(
        (a, b) =>
          Number(b.harnessHash === seedHash) - Number(a.harnessHash === seedHash) ||
          a.taskId.localeCompare(b.taskId) ||
          a.sampleIndex - b.sampleIndex,
      );
      expect(listed.length).toBeGreaterThan(3 * pageSize);
      last = listed[listed.length - 1];
      secret = `${last.taskId}-was-here`;
      const records = {
        ...run.records,
        rollouts: run.records.rollouts.map((record) =>
          record.key === last.key ? { ...record, output: `${record.output} ${secret}` } : record,
        ),
      };
      const html = renderHtml(
        { result: run.result, records, prompts: run.prompts },
        { pageSize, secrets: [secret] },
      );
      expect(html).not.toContain(secret);
      await writeFile(join(dir, "report.html"), html);
      opened = await openReport(browser, join(dir, "report.html"));
      page = opened.page;
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all(
        [run?.dir, dir].map((each) => each && rm(each, { recursive: true, force: true })),
      );
    });

    it("shows the first page of each long list and says how many there are", async () => {
      expect(await count('[data-filter-item="rollouts"]')).toBe(pageSize);
      expect(await count('[data-filter-item="tasks"]')).toBe(pageSize);
      const total = run.records.rollouts.length;
      await expect
        .poll(() => page.locator('[data-page-count="rollouts"]').textContent())
        .toBe(`${pageSize} of ${total} here`);
    });

    it("shows the next page on request, then the rest", async () => {
      await page.locator('button[data-page-next="rollouts"]').click();
      await expect.poll(() => count('[data-filter-item="rollouts"]')).toBe(2 * pageSize);
      await page.locator('button[data-page-all="rollouts"]').click();
      await expect
        .poll(() => count('[data-filter-item="rollouts"]'))
        .toBe(run.records.rollouts.length);
      expect(await page.locator('[data-page-more="rollouts"]').isHidden()).toBe(true);
    });

    it("opens a rollout of a page not shown yet when a link leads to it, and every link lands", async () => {
      const fresh = await openReport(browser, join(dir, "report.html"));
      const target = rolloutAnchor(last.key);
      expect(await fresh.page.locator(`#${target}`).count()).toBe(0);
      await fresh.page.evaluate(goToHash, target);
      const rollout = fresh.page.locator(`#${target}`);
      await expect.poll(() => rollout.count()).toBe(1);
      await expect.poll(() => rollout.evaluate(isOpen)).toBe(true);
      expect(await fresh.page.evaluate(danglingLinks)).toEqual([]);
      expect(await fresh.page.locator("body").textContent()).not.toContain(secret);
      expect(fresh.errors).toEqual([]);
      expect(fresh.requests.filter((url) => !url.startsWith("file:"))).toEqual([]);
      expect(await fresh.violations()).toEqual([]);
      await fresh.page.close();
    });

    it("searches and filters the whole list, not only the page shown", async () => {
      const fresh = await openReport(browser, join(dir, "report.html"));
      await fresh.page.locator('[data-filter-input="tasks"]').fill(last.taskId);
      const row = fresh.page.locator(`#${taskAnchor(last.taskId)}`);
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.isVisible()).toBe(true);
      await expect
        .poll(() => fresh.page.locator('[data-filter-count="tasks"]').textContent())
        .toBe(`1 of ${run.records.measures.train.seed.tasks.length} shown`);
      expect(fresh.errors).toEqual([]);
      expect(await fresh.violations()).toEqual([]);
      await fresh.page.close();
    });

    it("ran without an error, a request or a policy violation", async () => {
      expect(opened.errors).toEqual([]);
      expect(opened.requests.filter((url) => !url.startsWith("file:"))).toEqual([]);
      expect(await opened.violations()).toEqual([]);
    });
  },
);
