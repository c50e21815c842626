import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { repoRoot, runCli } from "../../src/cli/testing/run-cli.js";
import type { Task } from "../../src/config/task-schema.js";
import { readPromptLog } from "../../src/evolve/prompt-log.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import { readRunRecords } from "../../src/evolve/run-records.js";
import { recordViolations, violations } from "./in-page.js";

// Test support for the browser tests of report.html: Debian's Chromium (installed by .ci/run)
// driven headless by playwright-core, and a real `ecdysis evolve` of the quickstart to open.

const candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The Chromium binary to drive: $CHROMIUM_PATH, else the first of the usual Debian paths. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return candidates.find((path) => existsSync(path));
}

/**
 * The Chromium to use, or undefined (the suite skips) when none is installed locally. On CI a
 * missing browser is an error, not a skip: `.ci/run` installs it.
 */
export function chromiumOrSkip(): string | undefined {
  const found = findChromium();
  if (!found && process.env.CI)
    throw new Error(
      "no Chromium found (looked at $CHROMIUM_PATH and /usr/bin/chromium): .ci/run installs it with 'apt-get install -y chromium'",
    );
  if (!found) console.warn(`report.html browser tests ${skipNote}`);
  return found;
}

/** Why the browser suite was skipped, for its title. */
export const skipNote =
  "SKIPPED: no Chromium here (apt-get install -y chromium, or set CHROMIUM_PATH)";

/** Headless Chromium; `--no-sandbox` because CI runs as root. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
}

/** A page of report.html with what it did recorded: every request, console error and CSP violation. */
export interface OpenedReport {
  page: Page;
  requests: string[];
  errors: string[];
  dialogs: string[];
  violations(): Promise<string[]>;
}

/** Opens `file` from disk (file://) in a fresh page and waits for its script to have run. */
export async function openReport(browser: Browser, file: string): Promise<OpenedReport> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(recordViolations);
  await page.goto(pathToFileURL(file).href);
  return {
    page,
    requests,
    errors,
    dialogs,
    violations: () => page.evaluate(violations),
  };
}

/** A finished quickstart run: its folder, what it wrote, and the tasks it ran on. */
export interface QuickstartRun {
  dir: string;
  out: string;
  html: string;
  result: EvolveResult;
  records: NonNullable<Awaited<ReturnType<typeof readRunRecords>>>;
  prompts: Awaited<ReturnType<typeof readPromptLog>>;
  train: Task[];
  heldout: Task[];
}

async function readTasks(file: string): Promise<Task[]> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Task);
}

/**
 * Copies examples/quickstart to a temporary folder (`prepare` may change it first), runs
 * `ecdysis evolve` there as a user would (with `args` added), and reads back what the run wrote.
 */
export async function runQuickstart(
  options: { prepare?: (dir: string) => Promise<void>; args?: string[] } = {},
): Promise<QuickstartRun> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-report-browser-"));
  await cp(join(repoRoot, "examples", "quickstart"), dir, {
    recursive: true,
    filter: (source) => !source.includes(`${join("quickstart", ".ecdysis")}`),
  });
  await options.prepare?.(dir);
  const argv = ["evolve", "--config", "ecdysis.yml", "--out", "out", ...(options.args ?? [])];
  const run = await runCli(argv, { cwd: dir });
  if (run.code !== 0) throw new Error(`ecdysis evolve failed (${run.code}):\n${run.stderr}`);
  return readRun(dir);
}

/** Reads the records of the run in `dir`/out. */
export async function readRun(dir: string): Promise<QuickstartRun> {
  const out = join(dir, "out");
  const records = await readRunRecords(out);
  if (!records) throw new Error(`${out} has no records.json`);
  return {
    dir,
    out,
    html: join(out, "report.html"),
    result: JSON.parse(await readFile(join(out, "result.json"), "utf8")) as EvolveResult,
    records,
    prompts: await readPromptLog(out),
    train: await readTasks(join(dir, "tasks", "train.jsonl")),
    heldout: await readTasks(join(dir, "tasks", "heldout.jsonl")),
  };
}

/**
 * Where screenshots go: `$ECDYSIS_SCREENSHOTS` (e.g. docs/report, relative to the checkout) when
 * set, else a temporary folder (they are still taken, so the code path runs).
 */
export async function screenshotDir(): Promise<string> {
  const wanted = process.env.ECDYSIS_SCREENSHOTS;
  const dir = wanted
    ? resolve(repoRoot, wanted)
    : await mkdtemp(join(tmpdir(), "ecdysis-screens-"));
  await mkdir(dir, { recursive: true });
  return dir;
}
