import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { barePatternIds, danglingLinks, isInViewport, isOpen as isOpenInPage } from "./in-page.js";
import {
  chromiumOrSkip,
  launchChromium,
  type OpenedReport,
  openReport,
  type QuickstartRun,
  runQuickstart,
  screenshotDir,
  skipNote,
} from "./report-browser.js";

// Issue #17 item 1: report.html of a real quickstart run, opened from disk in headless Chromium
// and used as an ML engineer would — follow a failure from its pattern to the rollouts to the
// edit that fixed it, open the roles' turns and their prompts, read the candidate table and the
// held-out view, filter and search. The screenshots in docs/report/ are taken here
// (ECDYSIS_SCREENSHOTS=docs/report npx vitest run test/report/report-drilldown.int.test.ts).

const chromiumPath = chromiumOrSkip();

let browser: Browser;
let run: QuickstartRun;
let opened: OpenedReport;
let page: Page;
let shots: string;
let iterative: QuickstartRun;

const inViewport = (locator: Locator) => locator.evaluate(isInViewport);
const isOpen = (locator: Locator) => locator.evaluate(isOpenInPage);

const anchorOf = (href: string | null) => (href ?? "").replace(/^#/, "");

describe.skipIf(!chromiumPath)(
  `report.html in headless Chromium${chromiumPath ? "" : ` — ${skipNote}`}`,
  () => {
    beforeAll(async () => {
      [run, iterative, browser, shots] = await Promise.all([
        runQuickstart(),
        runQuickstart({ args: ["--strategy", "iterative"] }),
        launchChromium(chromiumPath as string),
        screenshotDir(),
      ]);
      opened = await openReport(browser, run.html);
      page = opened.page;
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all(
        [run?.dir, iterative?.dir, process.env.ECDYSIS_SCREENSHOTS ? undefined : shots].map(
          (dir) => dir && rm(dir, { recursive: true, force: true }),
        ),
      );
    });

    it("is one self-contained file: every section present, nothing fetched, no error, every link lands", async () => {
      const ids = await page
        .locator("nav.toc a")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")?.slice(1)));
      expect(ids).toEqual([
        "summary",
        "chart",
        "candidates",
        "heldout",
        "patterns",
        "rollouts",
        "tasks",
        "refinement",
        "rejections",
        "diff",
        "cost",
      ]);
      for (const id of ids) expect(await page.locator(`section#${id}`).count()).toBe(1);
      expect(opened.requests).toEqual([page.url()]);
      expect(opened.errors).toEqual([]);
      expect(await opened.violations()).toEqual([]);
      expect(await page.evaluate(danglingLinks)).toEqual([]);
      await page.locator("#summary").screenshot({ path: join(shots, "summary.png") });
    });

    it("follows a failure: pattern → member rollout (task, expected, output, scorer, trace) → the edit that fixed it", async () => {
      const row = page
        .locator('#patterns tr[data-standing="systematic"]')
        .filter({ has: page.locator("a.edit-ref") })
        .first();
      const patternName = ((await row.locator("strong").first().textContent()) ?? "").trim();
      const member = row.locator('td a[href^="#rollout-"]').first();
      const key = anchorOf(await member.getAttribute("href")).replace(/^rollout-/, "");
      const record = run.records.rollouts.find((rollout) => rollout.key === key);
      if (!record) throw new Error(`member ${key} is not in records.json`);
      const task = run.train.find((candidate) => candidate.id === record.taskId);
      if (!task) throw new Error(`task ${record.taskId} is not in train.jsonl`);

      const details = page.locator(`details#rollout-${key}`);
      expect(await isOpen(details)).toBe(false);
      await member.click();
      await expect.poll(() => isOpen(details)).toBe(true);
      expect(await inViewport(details)).toBe(true);
      const field = async (name: string) =>
        (await details.locator(`dl > dt:text-is("${name}") + dd`).first().textContent()) ?? "";
      expect((await field("Task input")).trim()).toBe(task.input.trim());
      expect((await field("Expected")).trim()).toBe(String(task.expected));
      expect((await field("Output")).trim()).toBe(record.output.trim());
      expect(await field("Scorer")).toContain(record.verdict.reason);
      expect(await field("Patterns")).toContain(patternName);
      expect(await details.locator("ol.trace > li").count()).toBe(record.trace.steps.length);
      await details.screenshot({ path: join(shots, "rollout-drilldown.png") });

      // Collapsed again, the same link opens it again.
      await details.locator("summary").first().click();
      expect(await isOpen(details)).toBe(false);
      await member.click();
      await expect.poll(() => isOpen(details)).toBe(true);

      const edit = details.locator("a.edit-ref").first();
      const candidate = page.locator(`tr#${anchorOf(await edit.getAttribute("href"))}`);
      await edit.click();
      await expect.poll(() => inViewport(candidate)).toBe(true);
      expect(await candidate.getAttribute("class")).toContain("targeted");
      const index = Number(anchorOf(await edit.getAttribute("href")).replace("candidate-", ""));
      const iteration = run.result.iterations.find((item) => item.index === index);
      expect(await candidate.locator("td").nth(5).textContent()).toContain(iteration?.verdict);
      expect(iteration?.applied.some((planned) => planned.patterns.length > 0)).toBe(true);
    });

    it("lists every member of every pattern by name and id, with a link to each", async () => {
      expect(run.records.missing).toEqual([]);
      const patterns = run.result.iterations.flatMap((iteration) =>
        (iteration.diagnosis?.patterns ?? []).map((pattern) => ({ iteration, pattern })),
      );
      expect(patterns.length).toBeGreaterThan(0);
      for (const { iteration, pattern } of patterns) {
        const row = page.locator(`#patterns tr[data-iteration="${iteration.index}"]`, {
          has: page.locator(`small:text-is("${pattern.id}")`),
        });
        expect(await row.count()).toBe(1);
        expect(await row.locator("strong").first().textContent()).toBe(pattern.name);
        const links = await row
          .locator('td a[href^="#rollout-"]')
          .evaluateAll((items) => items.map((item) => item.getAttribute("href")?.slice(9)));
        expect(links.sort()).toEqual([...pattern.memberKeys].sort());
        expect(await row.locator("details.more").count()).toBe(
          pattern.memberKeys.length > 9 ? 1 : 0,
        );
      }
      await page.locator("#patterns").screenshot({ path: join(shots, "patterns.png") });
    });

    it("shows the candidate table: hashes, changes, cheap and full scores, fixed/broken, verdict and reason", async () => {
      const rows = page.locator("#candidates table.candidates tr[id^='candidate-']");
      expect(await rows.count()).toBe(run.result.iterations.length);
      for (const [position, iteration] of run.result.iterations.entries()) {
        const cells = rows.nth(position).locator(":scope > td");
        expect(await cells.nth(1).textContent()).toContain(iteration.parentHash.slice(0, 10));
        expect(await cells.nth(5).textContent()).toContain(iteration.verdict);
        for (const planned of iteration.applied)
          expect(await cells.nth(2).textContent()).toContain(planned.module);
        if (iteration.verdict === "accepted")
          expect(await cells.nth(3).textContent()).toMatch(/fixed \d+, broken \d+ of \d+; p/);
      }
      // A long list of fixed tasks is collapsed under "+N more"; opened, its links lead to the task rows.
      const more = page.locator("#candidates details.more").first();
      const hidden = more.locator('a[href^="#task-"]').first();
      expect(await hidden.isVisible()).toBe(false);
      await more.locator("summary").click();
      expect(await hidden.isVisible()).toBe(true);
      const taskRow = page.locator(`tr#${anchorOf(await hidden.getAttribute("href"))}`);
      await hidden.click();
      await expect.poll(() => inViewport(taskRow)).toBe(true);
      expect(await taskRow.locator("td").first().textContent()).toBe(await hidden.textContent());
      // Pattern ids are shown as names: no bare id is left in the candidates or the roles' turns.
      const bare = await page.evaluate(barePatternIds, ["candidates", "refinement"]);
      expect(bare).toEqual([]);
      await page.locator("#candidates").screenshot({ path: join(shots, "candidates.png") });
    });

    it("shows rejected candidates with the reason, and the rejected proposals later refinement saw", async () => {
      // The iterative baseline on the quickstart rejects candidates (the ecdysis run accepts them all).
      const rejected = iterative.result.iterations.filter((item) => item.verdict === "rejected");
      expect(rejected.length).toBeGreaterThan(0);
      const other = await openReport(browser, iterative.html);
      for (const iteration of rejected) {
        const verdict = other.page.locator(`tr#candidate-${iteration.index} > td`).nth(5);
        expect(await verdict.getAttribute("class")).toBe("rejected");
        expect(await verdict.textContent()).toBe(`rejected${iteration.reason}`);
      }
      const proposals = other.page.locator(
        "#rejections h3:text-is('Rejected proposals') + p + ul > li",
      );
      expect(await proposals.count()).toBe(iterative.result.rejectedProposals.length);
      expect(other.requests).toEqual([other.page.url()]);
      expect(other.errors).toEqual([]);
      await other.page
        .locator("#candidates")
        .screenshot({ path: join(shots, "candidates-rejected.png") });
      await other.page.close();
    });

    it("shows the held-out view per category with intervals and every flipped task, and the chart's marks", async () => {
      const { gate, measures } = run.result;
      const categories = [...new Set(run.heldout.map((task) => task.category))].sort();
      const rows = page.locator("#heldout table.numeric tr:has(td)");
      expect(await rows.count()).toBe(categories.length);
      for (const [position, category] of categories.entries()) {
        const text = await rows.nth(position).textContent();
        const seed = measures?.heldout.seed.byCategory[category];
        const final = measures?.heldout.final.byCategory[category];
        expect(text).toContain(category);
        expect(text).toMatch(
          new RegExp(`${seed?.passed}/${seed?.n} = [\\d.]+% \\[[\\d.]+–[\\d.]+\\]`),
        );
        expect(text).toContain(`${final?.passed}/${final?.n} = `);
      }
      const flipped = await page
        .locator("#heldout h3:text-is('Flipped tasks') + table tr td:first-child")
        .allInnerTexts();
      expect(flipped.sort()).toEqual([...gate.comparison.fixed, ...gate.comparison.broken].sort());
      await page.locator("#heldout").screenshot({ path: join(shots, "heldout.png") });

      const chart = page.locator("#chart svg");
      expect(await chart.locator("text.axis-title").allTextContents()).toEqual([
        "iteration (0 = seed harness)",
        "accuracy",
      ]);
      expect(await chart.locator("rect.heldout").count()).toBe(3); // seed, final, legend
      const accepted = run.result.iterations.filter((item) => item.verdict === "accepted");
      expect(await chart.locator(":scope > g.accepted-mark").count()).toBe(accepted.length);
      await page.locator("#chart").screenshot({ path: join(shots, "chart.png") });
    });

    it("opens a role's turn with the prompt and reply of its call, as the run kept them", async () => {
      const turn = page.locator("#iteration-1 details.turn").first();
      await turn.locator("summary").first().click();
      const call = turn.locator("details.call").first();
      await call.locator("summary").first().click();
      expect(await isOpen(call)).toBe(true);
      const id = (await call.getAttribute("id"))?.replace(/^call-/, "");
      const kept = run.prompts.find((item) => item.id === id);
      if (!kept) throw new Error(`call ${id} is not in prompts.jsonl`);
      const headings = await call.locator("h5").allInnerTexts();
      expect(headings.map((text) => text.toLowerCase())).toEqual([
        ...kept.messages.map((message) => message.role),
        "reply",
      ]);
      const texts = await call.locator("pre").allInnerTexts();
      expect(texts[0].trim()).toBe(kept.messages[0].content.slice(0, 30_000).trim());
      expect(texts.at(-1)?.trim()).toBe((kept.reply ?? "").slice(0, 30_000).trim());
      await turn.screenshot({ path: join(shots, "role-turn.png") });
    });

    it("filters and searches rollouts and tasks on the page", async () => {
      const taskId = run.records.rollouts[0].taskId;
      const expected = run.records.rollouts.filter((record) => record.taskId === taskId).length;
      const total = run.records.rollouts.length;
      await page.locator('[data-filter-input="rollouts"]').fill(taskId);
      await expect
        .poll(() => page.locator('[data-filter-count="rollouts"]').textContent())
        .toBe(`${expected} of ${total} shown`);
      const visible = page.locator("details.rollout:not([hidden])");
      expect(await visible.count()).toBe(expected);
      await page.locator('[data-filter-input="rollouts"]').fill("");
      const category = run.records.rollouts[0].category;
      await page
        .locator('select[data-filter-select="rollouts"][data-key="category"]')
        .selectOption(category);
      const categories = await visible.evaluateAll((items) =>
        items.map((item) => item.getAttribute("data-category")),
      );
      expect(new Set(categories)).toEqual(new Set([category]));
      expect(categories.length).toBe(
        run.records.rollouts.filter((record) => record.category === category).length,
      );

      const fixed = run.records.measures.train.final.tasks.filter((task) => {
        const seed = run.records.measures.train.seed.tasks.find(
          (item) => item.taskId === task.taskId,
        );
        return task.pass && !seed?.pass;
      });
      await page
        .locator('select[data-filter-select="tasks"][data-key="status"]')
        .selectOption("fixed");
      const shown = await page
        .locator('#tasks tr[data-filter-item="tasks"]:not([hidden]) td:first-child')
        .allInnerTexts();
      expect(shown.sort()).toEqual(fixed.map((task) => task.taskId).sort());
      expect(fixed.length).toBeGreaterThan(0);
    });
  },
);
