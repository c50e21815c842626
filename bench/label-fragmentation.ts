/**
 * How well failure patterns survive a refiner that words one cause in many ways
 * (`npm exec tsx bench/label-fragmentation.ts [-- --world plainspoken --seeds 53,1,2,3,4]`).
 *
 * For each world seed: the seed harness runs on the train split against the sim (over HTTP, the
 * real openai SDK), the failure notes are written, and the failures are aggregated twice — with
 * the cause labels as written, and canonicalised against the deterministic signals
 * (`canonicaliseCauses`) — then classified by support (minSupport 3 tasks). From the world's
 * ground truth (read here, never by the pipeline) each failing task's systematic deficiency is
 * known (the one that bites first in a run when a task has several); a deficiency is *found*
 * when one supported pattern holds at least half its failing tasks, and *fragmented* when its
 * failing tasks are spread over more than one pattern.
 * Prints the figures; asserts nothing.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { builtinAgent } from "../src/agent/builtin-agent.js";
import { modelConfigSchema } from "../src/config/config-schema.js";
import { loadTasks } from "../src/config/load-tasks.js";
import { aggregateFailures } from "../src/diagnose/aggregate.js";
import { canonicaliseCauses } from "../src/diagnose/canonical-causes.js";
import { extractBatchEvidence } from "../src/diagnose/evidence.js";
import { writeFailureNotes } from "../src/diagnose/failure-notes.js";
import { evaluate, scorerForTasks } from "../src/eval/index.js";
import { loadHarness } from "../src/harness/index.js";
import { createProvider } from "../src/llm/index.js";
import { loadWorld, startSimServer } from "../src/sim/index.js";
import { generateWorldWithTruth } from "../src/sim/world-generator.js";

const { values } = parseArgs({
  options: {
    world: { type: "string", default: "plainspoken" },
    seeds: { type: "string", default: "53,1,2,3,4,5,6,7" },
  },
});
const minTasks = 3;

type Row = {
  patterns: number;
  supported: number;
  found: number;
  fragmented: number;
  kinds: number;
};

async function measure(seed: number): Promise<{ raw: Row; canonical: Row }> {
  const world = { ...(await loadWorld(values.world)), seed };
  const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-labels-"));
  const files = await generateWorldWithTruth({ world, outDir: dir });
  const truth = JSON.parse(await readFile(files.groundTruth, "utf8")) as {
    tasks: { id: string; deficiencies: { kind: string; systematic: boolean }[] }[];
  };
  // A task exposed to several deficiencies fails by the one that bites first in a run.
  const order = [
    "tool-error-giveup",
    "context-loss",
    "step-budget",
    "arithmetic-slip",
    "format-drift",
  ];
  const kindOf = new Map(
    truth.tasks.map((task) => {
      const kinds = task.deficiencies.filter((item) => item.systematic).map((item) => item.kind);
      return [task.id, order.find((kind) => kinds.includes(kind)) ?? "model-specific"];
    }),
  );
  const tasks = await loadTasks(files.train);
  const harness = await loadHarness({ dir: files.harnessDir, kind: "builtin" });
  const server = await startSimServer({ world, latencyScale: 0 });
  try {
    const config = modelConfigSchema.parse({
      provider: "openai",
      baseUrl: server.url,
      model: "sim-1",
    });
    const provider = createProvider({ config, baseUrl: server.url, apiKey: "labels" });
    const { records } = await evaluate({
      tasks,
      harness,
      provider,
      adapter: builtinAgent(),
      scorer: scorerForTasks({ kind: "exact" }, { root: dir }),
      concurrency: 8,
      split: "train",
    });
    const failed = records.filter((record) => !record.verdict.pass);
    const noted = await writeFailureNotes({
      evidence: extractBatchEvidence({
        records: failed,
        tasks,
        stepLimit: harness.config?.agent_loop.max_steps,
      }),
      records: failed,
      tasks,
      refiner: provider,
    });
    const row = async (evidence: typeof noted): Promise<Row> => {
      const { patterns } = await aggregateFailures({
        evidence,
        records: failed,
        tasks,
        refiner: provider,
      });
      const kinds = new Set(failed.map((record) => kindOf.get(record.taskId) ?? "model-specific"));
      kinds.delete("model-specific");
      let found = 0;
      let fragmented = 0;
      for (const kind of kinds) {
        const members = failed
          .filter((record) => kindOf.get(record.taskId) === kind)
          .map((record) => record.taskId);
        const holding = patterns.filter((pattern) =>
          pattern.taskIds.some((id) => members.includes(id)),
        );
        if (holding.length > 1) fragmented++;
        if (
          holding.some(
            (pattern) =>
              pattern.support.tasks >= minTasks &&
              pattern.taskIds.filter((id) => members.includes(id)).length * 2 >= members.length,
          )
        )
          found++;
      }
      return {
        patterns: patterns.length,
        supported: patterns.filter((pattern) => pattern.support.tasks >= minTasks).length,
        found,
        fragmented,
        kinds: kinds.size,
      };
    };
    return { raw: await row(noted), canonical: await row(canonicaliseCauses(noted)) };
  } finally {
    await server.close();
  }
}

const seeds = values.seeds.split(",").map(Number);
const totals = { raw: [] as Row[], canonical: [] as Row[] };
console.log(
  `world ${values.world}; per seed: patterns / supported / deficiencies found / fragmented (of deficiencies present)`,
);
for (const seed of seeds) {
  const { raw, canonical } = await measure(seed);
  totals.raw.push(raw);
  totals.canonical.push(canonical);
  const show = (row: Row) =>
    `${row.patterns} / ${row.supported} / ${row.found} / ${row.fragmented} (of ${row.kinds})`;
  console.log(`seed ${seed}: labels as written ${show(raw)}; canonicalised ${show(canonical)}`);
}
const sum = (rows: Row[], key: keyof Row) => rows.reduce((total, row) => total + row[key], 0);
for (const variant of ["raw", "canonical"] as const) {
  const rows = totals[variant];
  console.log(
    `${variant === "raw" ? "labels as written" : "canonicalised    "}: ${sum(rows, "patterns")} patterns, ${sum(rows, "supported")} supported; ${sum(rows, "found")} of ${sum(rows, "kinds")} deficiencies found, ${sum(rows, "fragmented")} fragmented`,
  );
}
