/**
 * How often the split check's near-duplicate test fires on the bundled worlds, by input
 * similarity alone and with the same expected answer (the rule `checkSplitOverlap` applies)
 * (`npx tsx bench/split-near-duplicates.ts [-- --world quickstart --seeds 1,2 --examples 3]`).
 *
 * For every bundled world × seed the world's task files are generated (as `npm run bench`
 * generates them) and the train × held-out pairs are run through `nearDuplicates`
 * (`nearDuplicateThresholds`). A pair flagged by similarity alone whose tasks expect different
 * answers asks of another thing ("…symbol of gold?" Au beside "…of iron?" Fe): it is what the
 * check would refuse falsely without the answer rule. Prints a table and a few pairs of each
 * kind so a human can judge; asserts nothing.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeMachine } from "../src/bench/index.js";
import { canonicalJson } from "../src/config/canonical-json.js";
import { loadTasks } from "../src/config/load-tasks.js";
import { comparableText } from "../src/safety/guard-text.js";
import {
  type InputIndex,
  indexInputs,
  jaccard,
  nearDuplicates,
  nearDuplicateThresholds,
} from "../src/safety/near-duplicates.js";
import { bundledWorlds, loadWorld } from "../src/sim/index.js";
import { generateWorldWithTruth } from "../src/sim/world-generator.js";

const { values } = parseArgs({
  options: {
    world: { type: "string" },
    seeds: { type: "string", default: "1,2,3,4,5,6,7,8,9,10" },
    examples: { type: "string", default: "2" },
  },
});

interface Counts {
  projects: number;
  crossPairs: number;
  /** Pairs that share a rare name or number (the only ones `nearDuplicates` compares). */
  compared: number;
  /** The highest weighted similarity of a compared pair (0–1). */
  closest: number;
  /** Compared pairs alike enough in wording (≥ `.all`) but not in their names and numbers. */
  wordingOnly: number;
  /** Of those, the pairs whose tasks expect the same answer. */
  wordingOnlySame: number;
  flagged: number;
  sameAnswer: number;
}

const worlds = values.world ? values.world.split(",") : bundledWorlds();
const seeds = values.seeds.split(",").map(Number);
const rows: [string, Counts][] = [];
interface Example {
  world: string;
  seed: number;
  same: boolean;
  train: string;
  heldout: string;
  similarity: number;
  specific?: number;
}
const examples: Example[] = [];
const closestPairs = new Map<string, Example>();
for (const name of worlds) {
  const counts: Counts = {
    projects: 0,
    crossPairs: 0,
    compared: 0,
    closest: 0,
    wordingOnly: 0,
    wordingOnlySame: 0,
    flagged: 0,
    sameAnswer: 0,
  };
  for (const seed of seeds) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-split-"));
    try {
      const world = { ...(await loadWorld(name)), seed };
      const files = await generateWorldWithTruth({ world, outDir: dir });
      const train = await loadTasks(files.train);
      const heldout = await loadTasks(files.heldout);
      const index = indexInputs(
        [...train, ...heldout].map((task) => task.input),
        { dropShared: false },
      );
      const answer = (task: (typeof train)[number]) => comparableText(canonicalJson(task.expected));
      counts.projects += 1;
      counts.crossPairs += train.length * heldout.length;
      const near = closeness(
        index,
        train.length,
        (left, right) => answer(train[left]) === answer(heldout[right - train.length]),
      );
      counts.compared += near.compared;
      counts.wordingOnly += near.wordingOnly;
      counts.wordingOnlySame += near.wordingOnlySame;
      if (near.closest.all > counts.closest) {
        counts.closest = near.closest.all;
        const [left, right] = [
          train[near.closest.left],
          heldout[near.closest.right - train.length],
        ];
        closestPairs.set(name, {
          world: name,
          seed,
          same: answer(left) === answer(right),
          train: left.input,
          heldout: right.input,
          similarity: near.closest.all,
          specific: near.closest.specific,
        });
      }
      for (const pair of nearDuplicates(index, (task) => task < train.length)) {
        const left = train[pair.left];
        const right = heldout[pair.right - train.length];
        const same = answer(left) === answer(right);
        counts.flagged += 1;
        if (same) counts.sameAnswer += 1;
        const shown = examples.filter((entry) => entry.world === name && entry.same === same);
        if (shown.length < Number(values.examples))
          examples.push({
            world: name,
            seed,
            same,
            train: left.input,
            heldout: right.input,
            similarity: pair.similarity,
          });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  rows.push([name, counts]);
}

const machine = describeMachine();
console.log(
  `# Split near-duplicates — seeds ${values.seeds}, thresholds all ≥ ${nearDuplicateThresholds.all}, specific ≥ ${nearDuplicateThresholds.specific}`,
);
console.log(
  `# ${new Date().toISOString().slice(0, 10)} · ${machine.cpu} × ${machine.cores} · Node ${machine.node}\n`,
);
console.log(
  "| world | projects | train × held-out pairs | compared | closest pair | alike in wording only (same answer) | flagged by input | of which same answer (refused) |",
);
console.log("|---|---|---|---|---|---|---|---|");
const total: Counts = {
  projects: 0,
  crossPairs: 0,
  compared: 0,
  closest: 0,
  wordingOnly: 0,
  wordingOnlySame: 0,
  flagged: 0,
  sameAnswer: 0,
};
for (const [name, counts] of [...rows, ["**all**", total] as [string, Counts]]) {
  if (name !== "**all**")
    for (const field of Object.keys(total) as (keyof Counts)[])
      total[field] =
        field === "closest" ? Math.max(total[field], counts[field]) : total[field] + counts[field];
  console.log(
    `| ${name} | ${counts.projects} | ${counts.crossPairs} | ${counts.compared} | ${counts.closest.toFixed(2)} | ${counts.wordingOnly} (${counts.wordingOnlySame}) | ${counts.flagged} | ${counts.sameAnswer} |`,
  );
}
console.log("\n## Flagged pairs and each world's closest pair (train ⟷ held-out)\n");
for (const entry of [...examples, ...closestPairs.values()])
  console.log(
    `- ${entry.world}/${entry.seed} ${entry.same ? "same answer" : "other answer"} (${Math.round(entry.similarity * 100)}%${entry.specific === undefined ? "" : `, names/numbers ${Math.round(entry.specific * 100)}%`}): ${JSON.stringify(entry.train)} ⟷ ${JSON.stringify(entry.heldout)}`,
  );

/** The train × held-out pairs that share a specific shingle, and the highest similarity among them. */
function closeness(
  index: InputIndex,
  trainSize: number,
  sameAnswer: (left: number, right: number) => boolean,
): {
  compared: number;
  wordingOnly: number;
  wordingOnlySame: number;
  closest: { left: number; right: number; all: number; specific: number };
} {
  const seen = new Set<number>();
  let wordingOnly = 0;
  let wordingOnlySame = 0;
  let closest = { left: 0, right: trainSize, all: 0, specific: 0 };
  for (const tasks of index.postings.values())
    for (const left of tasks.filter((task) => task < trainSize))
      for (const right of tasks.filter((task) => task >= trainSize)) {
        if (seen.has(left * index.size + right)) continue;
        seen.add(left * index.size + right);
        const alike = jaccard(index.signature(left), index.signature(right));
        if (
          alike.all >= nearDuplicateThresholds.all &&
          alike.specific < nearDuplicateThresholds.specific
        ) {
          wordingOnly += 1;
          if (sameAnswer(left, right)) wordingOnlySame += 1;
        }
        if (alike.all > closest.all) closest = { left, right, ...alike };
      }
  return { compared: seen.size, wordingOnly, wordingOnlySame, closest };
}
