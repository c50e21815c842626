/**
 * `npx tsx bench/ceiling.ts DIR [--out FILE]`: each arm against the ceiling of its world (issue
 * #27 item 1), from a finished bench folder (`DIR/bench.json`, the generated projects' ground
 * truth, each run's journal). Figures are printed (or written to FILE), never asserted.
 *
 * The ceiling of a world × seed is computed from ground truth, not measured: the held-out
 * accuracy of a harness that fixes every systematic deficiency and nothing item-specific — a
 * held-out task with no model-specific deficiency passes, a prompt-sensitive borderline one
 * counts one half (its expected value: any prompt redraws it at even odds), an item slip of the
 * agent model never passes (the sim flips one only for an item-specific hint, an accommodation).
 * By construction no accommodation-free harness passes an item-slip task, so the ceiling bounds
 * such a harness from above, except by the prompt-sensitive items a particular prompt happens to
 * pass (at most half of them above it); per-sample flakes and the per-rule slip only lower what
 * a harness reaches, so a share below 100% is not all the method's. Each run's final held-out accuracy is shown as a share of it,
 * and the time to 90% and 95% of it — the first probe point of the harness in force at or above
 * the bar — in training wall time, training rollouts and LLM calls (cumulative through that
 * iteration, from the run's journal).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

interface TruthTask {
  id: string;
  split?: string;
  deficiencies: { kind: string; systematic: boolean; model?: string }[];
}
interface ProbePoint {
  iteration: number;
  elapsedMs: number;
  accuracy: number;
}
interface BenchRun {
  strategy: string;
  world: string;
  refiner: string;
  seed: number;
  budgetEvals: number;
  heldoutAccuracy: number;
  probe: { points: ProbePoint[] };
}
interface Reach {
  wallMs: number;
  rollouts: number;
  llmCalls: number;
}
interface Row {
  world: string;
  arm: string;
  budget: number;
  ceiling: number;
  share: number;
  reach90?: Reach;
  reach95?: Reach;
}

const agentModel = "sim-1";

/** The expected held-out accuracy of the best harness the world allows (see the header). */
export function ceilingOf(tasks: TruthTask[]): number {
  const heldout = tasks.filter((task) => task.split === "heldout");
  if (heldout.length === 0) return Number.NaN;
  const expected = heldout.map((task): number => {
    const specific = task.deficiencies.filter(
      (item) => !item.systematic && (!item.model || item.model === agentModel),
    );
    if (specific.some((item) => item.kind !== "prompt-sensitivity")) return 0;
    return specific.length > 0 ? 0.5 : 1;
  });
  return expected.reduce((sum, value) => sum + value, 0) / heldout.length;
}

async function worldCeiling(dir: string, world: string, seed: number): Promise<number> {
  const project = path.join(dir, "projects", `${world}-seed${seed}`);
  const truth = JSON.parse(await readFile(path.join(project, "ground-truth.json"), "utf8"));
  return ceilingOf(truth.tasks);
}

/** Training rollouts and LLM calls spent through the end of each iteration (0: before the first). */
async function spendByIteration(journal: string): Promise<Map<number, Reach>> {
  const totals = new Map<number, Reach>();
  if (!existsSync(journal)) return totals;
  let rollouts = 0;
  let llmCalls = 0;
  for (const line of (await readFile(journal, "utf8")).split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line);
    if (entry.type === "header" || String(entry.stage).startsWith("final/")) continue;
    rollouts += entry.spend?.rollouts ?? 0;
    llmCalls += entry.spend?.llmCalls ?? 0;
    const match = /^iteration-(\d+)\//.exec(String(entry.stage));
    const index = match ? Number(match[1]) : 0;
    totals.set(index, { wallMs: 0, rollouts, llmCalls });
  }
  return totals;
}

function reached(points: ProbePoint[], bar: number, spend: Map<number, Reach>): Reach | undefined {
  const point = points.find((item) => item.accuracy >= bar - 1e-9);
  if (!point) return undefined;
  const upTo = [...spend].filter(([index]) => index <= point.iteration).at(-1)?.[1];
  return { wallMs: point.elapsedMs, rollouts: upTo?.rollouts ?? 0, llmCalls: upTo?.llmCalls ?? 0 };
}

async function rowOf(dir: string, run: BenchRun, ceiling: number): Promise<Row> {
  const refiner = run.refiner === "neutral" ? "-neutral-refiner" : "";
  const name = `${run.world}-seed${run.seed}-b${run.budgetEvals}${refiner}-${run.strategy}`;
  const spend = await spendByIteration(path.join(dir, "runs", name, "evolve", "journal.jsonl"));
  const points = run.probe?.points ?? [];
  return {
    world: run.world,
    arm: `${run.strategy}${refiner}`,
    budget: run.budgetEvals,
    ceiling,
    share: run.heldoutAccuracy / ceiling,
    reach90: reached(points, 0.9 * ceiling, spend),
    reach95: reached(points, 0.95 * ceiling, spend),
  };
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function reachCell(rows: Row[], key: "reach90" | "reach95"): string {
  const got = rows.flatMap((row) => (row[key] ? [row[key]] : []));
  if (got.length === 0) return `0 of ${rows.length}`;
  const wall = median(got.map((item) => item.wallMs)) / 1000;
  const rollouts = median(got.map((item) => item.rollouts));
  const calls = median(got.map((item) => item.llmCalls));
  return `${got.length} of ${rows.length}: ${wall.toFixed(1)} s, ${rollouts} rollouts, ${calls} calls`;
}

function table(rows: Row[]): string {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = `${row.budget}|${row.world}|${row.arm}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const lines = [
    "| budget | world | arm | ceiling (median) | final / ceiling (median, min) | reached 90%: median wall, rollouts, LLM calls | reached 95% |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const [budget, world, arm] = key.split("|");
    const shares = group.map((row) => row.share);
    const share = `${(100 * median(shares)).toFixed(1)}%, ${(100 * Math.min(...shares)).toFixed(1)}%`;
    const ceiling = `${(100 * median(group.map((row) => row.ceiling))).toFixed(1)}%`;
    lines.push(
      `| ${budget} | ${world} | ${arm} | ${ceiling} | ${share} | ${reachCell(group, "reach90")} | ${reachCell(group, "reach95")} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const [dir, flag, out] = process.argv.slice(2);
  if (!dir) throw new Error("usage: tsx bench/ceiling.ts DIR [--out FILE]");
  const bench = JSON.parse(await readFile(path.join(dir, "bench.json"), "utf8"));
  const rows: Row[] = [];
  for (const run of bench.runs as BenchRun[]) {
    const ceiling = await worldCeiling(dir, run.world, run.seed);
    rows.push(await rowOf(dir, run, ceiling));
  }
  const all = rows.map((row) => ({ ...row, world: "all worlds" }));
  const text = `${table([...rows, ...all])}\n`;
  if (flag === "--out" && out) await writeFile(out, text);
  else process.stdout.write(text);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
