import type { RolloutRecord } from "../eval/types.js";
import type {
  ClassificationReason,
  FailurePattern,
  UnclassifiedPattern,
} from "./failure-pattern.js";

/** Re-runs failing members with new sample indices, `k` re-samples each. */
export type Resample = (records: RolloutRecord[], k: number) => Promise<RolloutRecord[]>;
/** Runs the members' tasks on the probe model under the same harness. */
export type Probe = (records: RolloutRecord[]) => Promise<RolloutRecord[]>;

/** One record per distinct task of a pattern (the first member), the unit re-runs work on. */
function representatives(
  pattern: UnclassifiedPattern,
  records: Map<string, RolloutRecord>,
): RolloutRecord[] {
  const byTask = new Map<string, RolloutRecord>();
  for (const key of pattern.memberKeys) {
    const record = records.get(key);
    if (record && !byTask.has(record.taskId)) byTask.set(record.taskId, record);
  }
  return [...byTask.values()];
}

/** Per task of the pattern: did the re-runs mostly pass? Tasks without re-runs are not counted. */
function tasksThatPass(taskIds: string[], reruns: RolloutRecord[], excludeKeys: Set<string>) {
  let tried = 0;
  let passed = 0;
  for (const taskId of taskIds) {
    const runs = reruns.filter((run) => run.taskId === taskId && !excludeKeys.has(run.key));
    if (runs.length === 0) continue;
    tried += 1;
    if (runs.filter((run) => run.verdict.pass).length * 2 > runs.length) passed += 1;
  }
  return { tried, passed };
}

/** `1 category`, `3 categories`. */
function count(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function supportReasons(
  pattern: UnclassifiedPattern,
  minSupport: { tasks: number; categories: number },
): ClassificationReason[] {
  const { tasks, categories } = pattern.support;
  if (tasks < minSupport.tasks) {
    return [
      tasks <= 1
        ? { code: "singleton", detail: `1 task (minimum ${minSupport.tasks})` }
        : {
            code: "narrow",
            detail: `${count(tasks, "task", "tasks")} (minimum ${minSupport.tasks})`,
          },
    ];
  }
  if (categories < minSupport.categories) {
    return [
      {
        code: "narrow",
        detail: `${count(categories, "category", "categories")} (minimum ${minSupport.categories})`,
      },
    ];
  }
  return [];
}

/** The `unknown-task` reason when most member runs said the model does not know the task. */
function unknownTaskReason(
  pattern: UnclassifiedPattern,
  keys: ReadonlySet<string> | undefined,
): ClassificationReason | undefined {
  if (!keys || keys.size === 0) return undefined;
  const said = pattern.memberKeys.filter((key) => keys.has(key)).length;
  if (said * 2 <= pattern.memberKeys.length) return undefined;
  return {
    code: "unknown-task",
    detail: `the model said it does not know how to do ${said} of ${pattern.memberKeys.length} member runs`,
  };
}

/**
 * Systematic vs model-specific, with the reasons recorded: mostly runs where the model said it
 * does not know the task → `unknown-task`; support below `minSupport` →
 * `singleton`/`narrow`; most failing tasks pass when re-sampled → `flaky`; the probe model
 * passes most of the tasks → `model-only`. Re-runs are batched: one `resample` call (and a
 * `resampleMore` call for the patterns it left undecided) and one `probe` call over all patterns
 * still in question. `onSupported` is told, before the re-runs, every pattern as the support
 * test left it (those that passed as systematic so far; the others decided, with their reasons):
 * work started on them is lost only when the re-runs then reject one.
 */
export async function classifyPatterns(options: ClassifyOptions): Promise<FailurePattern[]> {
  const records = new Map(options.records.map((record) => [record.key, record]));
  const memberKeys = new Set(options.records.map((record) => record.key));
  const state = options.patterns.map((pattern) => supportState(pattern, options));
  const toResample = state.filter((item) => item.open);
  if (toResample.length > 0)
    options.onSupported?.(
      state.map((entry) => ({
        ...entry.pattern,
        kind: entry.open ? "systematic" : "model-specific",
        reasons: [...entry.reasons],
      })),
    );
  await resampleOpen(toResample, { options, records, memberKeys });
  await probeOpen(
    state.filter((item) => item.open),
    { options, records, memberKeys },
  );
  return state.map((entry) => ({
    ...entry.pattern,
    kind: entry.open ? "systematic" : "model-specific",
    reasons: entry.reasons,
    ...(entry.reproducibility ? { reproducibility: entry.reproducibility } : {}),
    ...(entry.probe ? { probe: entry.probe } : {}),
  }));
}

interface ClassifyOptions {
  patterns: UnclassifiedPattern[];
  records: RolloutRecord[];
  minSupport: { tasks: number; categories: number };
  /**
   * Keys of the failed runs whose model said it does not know how to do the task. A pattern
   * made mostly of them is never systematic (`unknown-task`): it is the model's limit, not the
   * harness's, whatever the notes called it.
   */
  unknownTaskKeys?: ReadonlySet<string>;
  resample?: Resample;
  /**
   * A second wave of re-samples, asked only for the tasks of the patterns whose verdict the first
   * wave (`resample`) left open (`settled`); absent, `resample` re-runs them all at once.
   */
  resampleMore?: Resample;
  resamples?: number;
  probe?: Probe;
  onSupported?: (patterns: FailurePattern[]) => void;
  /** Why the patterns were not re-sampled, when the caller chose not to (default "not re-sampled"). */
  untested?: string;
}

/** One pattern on its way through the tests: still open (systematic so far) or decided. */
interface PatternState {
  pattern: UnclassifiedPattern;
  reasons: ClassificationReason[];
  open: boolean;
  reproducibility?: FailurePattern["reproducibility"];
  probe?: FailurePattern["probe"];
}

/** What the re-run steps read: the options, the batch's records by key and their keys. */
interface RerunContext {
  options: ClassifyOptions;
  records: Map<string, RolloutRecord>;
  memberKeys: Set<string>;
}

/** The first test: unknown-task, then support; an open pattern is recorded as supported. */
function supportState(pattern: UnclassifiedPattern, options: ClassifyOptions): PatternState {
  const unknown = unknownTaskReason(pattern, options.unknownTaskKeys);
  const reasons = unknown ? [unknown] : supportReasons(pattern, options.minSupport);
  const open = reasons.length === 0;
  if (open) {
    const { tasks, categories } = pattern.support;
    reasons.push({
      code: "supported",
      detail: `${count(tasks, "task", "tasks")} across ${count(categories, "category", "categories")}`,
    });
  }
  return { pattern, reasons, open };
}

/** Re-samples the open patterns' representatives once for all; most passing → `flaky`. */
async function resampleOpen(open: PatternState[], context: RerunContext): Promise<void> {
  const { options, records, memberKeys } = context;
  const resamples = options.resamples ?? 1;
  if (!options.resample || resamples <= 0 || open.length === 0) {
    for (const entry of open)
      entry.reasons.push({ code: "untested", detail: options.untested ?? "not re-sampled" });
    return;
  }
  const first = await options.resample(
    dedupe(open.flatMap((item) => representatives(item.pattern, records))),
    resamples,
  );
  const reruns = [...first, ...(await secondWave(open, first, context))];
  for (const entry of open) {
    const { tried, passed } = tasksThatPass(entry.pattern.taskIds, reruns, memberKeys);
    entry.reproducibility = { members: tried, vanished: passed, resamples };
    if (tried > 0 && passed * 2 > tried) {
      entry.open = false;
      entry.reasons.push({
        code: "flaky",
        detail: `${passed} of ${tried} failing tasks passed when re-sampled`,
      });
    } else {
      entry.reasons.push({
        code: "reproducible",
        detail: `${tried - passed} of ${tried} failing tasks failed again when re-sampled`,
      });
    }
  }
}

/**
 * The second wave of re-samples (`resampleMore`): the tasks the first did not re-run, of the open
 * patterns whose verdict they could still turn; none when every verdict is settled.
 */
async function secondWave(
  open: PatternState[],
  first: RolloutRecord[],
  context: RerunContext,
): Promise<RolloutRecord[]> {
  const { options, records, memberKeys } = context;
  if (!options.resampleMore) return [];
  const rerun = new Set(first.map((run) => run.taskId));
  const pending = open.flatMap((entry) => {
    const unrun = representatives(entry.pattern, records).filter(
      (record) => !rerun.has(record.taskId),
    );
    const { tried, passed } = tasksThatPass(entry.pattern.taskIds, first, memberKeys);
    return settled(tried, passed, unrun.length) ? [] : unrun;
  });
  if (pending.length === 0) return [];
  return options.resampleMore(dedupe(pending), options.resamples ?? 1);
}

/**
 * Whether up to `unrun` more re-sampled tasks could not turn the flaky verdict (most re-sampled
 * tasks pass): not flaky even if every one of them passed, or flaky even if none did.
 */
export function settled(tried: number, passed: number, unrun: number): boolean {
  const neverFlaky = 2 * passed + unrun <= tried;
  const alwaysFlaky = 2 * passed > tried + unrun;
  return neverFlaky || alwaysFlaky;
}

/** Runs the open patterns' representatives on the probe model; most passing → `model-only`. */
async function probeOpen(open: PatternState[], context: RerunContext): Promise<void> {
  const { options, records, memberKeys } = context;
  if (!options.probe || open.length === 0) return;
  const runs = await options.probe(
    dedupe(open.flatMap((item) => representatives(item.pattern, records))),
  );
  const model = runs[0]?.model ?? "probe";
  for (const entry of open) {
    const { tried, passed } = tasksThatPass(entry.pattern.taskIds, runs, memberKeys);
    entry.probe = { tasks: tried, passed, model };
    if (tried > 0 && passed * 2 > tried) {
      entry.open = false;
      entry.reasons.push({
        code: "model-only",
        detail: `the probe model passed ${passed} of ${tried} tasks`,
      });
    } else {
      entry.reasons.push({
        code: "probe-fails",
        detail: `the probe model failed ${tried - passed} of ${tried} tasks too`,
      });
    }
  }
}

function dedupe(records: RolloutRecord[]): RolloutRecord[] {
  return [...new Map(records.map((record) => [record.key, record])).values()];
}
