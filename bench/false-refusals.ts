/**
 * The content guards' refusals on the edits a real evolve proposes
 * (`npx tsx bench/false-refusals.ts [-- --world quickstart --seeds 1,2 --budget 15]`).
 *
 * For every bundled world × seed, the Ecdysis strategy evolves on the simulated model exactly
 * as `npm run bench` runs it (`simEngine`: a generated project, the sim served on loopback,
 * `runEvolve`), at latency 0 and one budget (full-split evaluations; default 15, the bench's
 * larger one). Every edit the Editor planned is followed to its fate, read from the run's
 * result.json: refused by a guard (which one, its reason), accepted (in force after an accepted
 * iteration), or rejected on merit (passed the guards; its candidate was rejected, or pruned).
 * Prints a table per world and overall, then every guard-refused edit's text so a human can
 * judge whether it is a general rule (a false refusal) or names a task (a true one); the
 * judgement is docs/security.md's. Asserts nothing. `--reuse` reads the result.json of runs a
 * previous call left in `--out` instead of running them again.
 */
import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { defaultMaxIterations, defaultTemperature, describeMachine } from "../src/bench/index.js";
import { budgetRollouts } from "../src/bench/run-plan.js";
import { simEngine } from "../src/bench/sim-engine.js";
import type { EvolveResult } from "../src/evolve/index.js";
import type { PlannedEdit } from "../src/harness/types.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    out: { type: "string", default: path.join(root, ".ecdysis", "false-refusals") },
    world: { type: "string" },
    seeds: { type: "string", default: "1,2,3,4,5,6,7,8,9,10" },
    budget: { type: "string", default: "15" },
    reuse: { type: "boolean", default: false },
  },
});

type Fate = "accepted" | "merit" | "guard";
interface EditFate {
  world: string;
  seed: number;
  iteration: number;
  fate: Fate;
  guard?: string;
  reason?: string;
  edit: PlannedEdit;
}

const engine = simEngine();
const worlds = values.world ? values.world.split(",") : engine.bundledWorlds();
const seeds = values.seeds.split(",").map(Number);
const fates: EditFate[] = [];
const startedAt = new Date();
for (const name of worlds) {
  const world = await engine.describeWorld(name);
  for (const seed of seeds) {
    const runDir = path.join(values.out, `${name}-seed${seed}`);
    const resultFile = path.join(runDir, "run", "evolve", "result.json");
    if (!(values.reuse && (await exists(resultFile)))) {
      const project = await engine.prepareProject({
        world,
        seed,
        dir: path.join(runDir, "project"),
      });
      await engine.runStrategy({
        project,
        world,
        strategy: "ecdysis",
        refiner: "world",
        settings: {
          seed,
          budgetRollouts: budgetRollouts(Number(values.budget), project.trainTasks),
          latencyScale: 0,
          concurrency: 8,
          maxIterations: defaultMaxIterations,
          temperature: defaultTemperature,
        },
        outDir: path.join(runDir, "run"),
        clock: { now: () => performance.now() },
      });
    }
    const result = JSON.parse(await readFile(resultFile, "utf8")) as EvolveResult;
    fates.push(...editFates(result, name, seed));
    process.stderr.write(`${name} seed ${seed}: ${result.iterations.length} iterations\n`);
  }
}
printReport(fates);

/** The fate of every edit the Editor planned in a run, iteration by iteration. */
function editFates(result: EvolveResult, world: string, seed: number): EditFate[] {
  const found: EditFate[] = [];
  for (const iteration of result.iterations) {
    const planned = iteration.refinement?.edits ?? [];
    const refused = new Map(iteration.guardRejections.map((entry) => [key(entry.edit), entry]));
    const kept = new Set(iteration.applied.map(key));
    for (const edit of planned) {
      const rejection = refused.get(key(edit));
      const base = { world, seed, iteration: iteration.index, edit };
      if (rejection)
        found.push({ ...base, fate: "guard", guard: rejection.guard, reason: rejection.reason });
      else if (iteration.verdict === "accepted" && kept.has(key(edit)))
        found.push({ ...base, fate: "accepted" });
      else found.push({ ...base, fate: "merit" });
    }
  }
  return found;
}

function key(edit: PlannedEdit): string {
  return JSON.stringify(edit.edit);
}

/** The text an edit would bring into the harness. */
function editText(edit: PlannedEdit): string {
  const change = edit.edit;
  switch (change.kind) {
    case "set":
      return `set ${change.path} = ${JSON.stringify(change.value)}`;
    case "add_rule":
    case "remove_rule":
      return `${change.kind}: ${change.text}`;
    case "replace_text":
      return `replace_text ${change.file}: ${JSON.stringify(change.find)} -> ${JSON.stringify(change.replace)}`;
    case "write_file":
      return `write_file ${change.file}: ${change.content}`;
  }
}

function printReport(all: EditFate[]): void {
  const machine = describeMachine();
  console.log(
    `# Guard refusals of proposed edits — ecdysis arm, budget ${values.budget}, latency 0, seeds ${values.seeds}`,
  );
  console.log(
    `# ${startedAt.toISOString().slice(0, 10)} · ${machine.cpu} × ${machine.cores} · Node ${machine.node}\n`,
  );
  const header = [
    "world",
    "proposed",
    "accepted",
    "merit-rejected",
    "guard-refused",
    "of which leak/secret",
  ];
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  const row = (label: string, list: EditFate[]) => {
    const count = (fate: Fate) => list.filter((entry) => entry.fate === fate).length;
    const content = list.filter((entry) => entry.guard === "leak" || entry.guard === "secret");
    console.log(
      `| ${label} | ${list.length} | ${count("accepted")} | ${count("merit")} | ${count("guard")} | ${content.length} |`,
    );
  };
  for (const name of worlds)
    row(
      name,
      all.filter((entry) => entry.world === name),
    );
  row("**all**", all);
  console.log("\n## Guard-refused edits (judge each: a general rule, or one naming a task?)\n");
  const refused = all.filter((entry) => entry.fate === "guard");
  const distinct = new Map<string, EditFate[]>();
  for (const entry of refused) {
    const text = `[${entry.guard}] ${editText(entry.edit)}`;
    distinct.set(text, [...(distinct.get(text) ?? []), entry]);
  }
  for (const [text, entries] of distinct) {
    const where = entries.map((entry) => `${entry.world}/${entry.seed}#${entry.iteration}`);
    console.log(`- ${text}\n  reason: ${entries[0].reason}\n  runs: ${where.join(", ")}`);
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
