/**
 * Drops from a held-out task file every task that nearly duplicates a train task with the same
 * answer, as the split check (`checkSplitOverlap`) would refuse it
 * (`npm exec tsx bench/disjoint-splits.ts -- TRAIN.jsonl HELDOUT.jsonl`; rewrites HELDOUT).
 * bench/scale-flow.sh runs it on the big simulated worlds, where a few of thousands of draws per
 * family collide; it prints how many it dropped. Asserts nothing.
 */
import { readFile, writeFile } from "node:fs/promises";
import { canonicalJson } from "../src/config/canonical-json.js";
import { loadTasks, taskOrigin } from "../src/config/load-tasks.js";
import { comparableText } from "../src/safety/guard-text.js";
import { indexInputs, nearDuplicates } from "../src/safety/near-duplicates.js";

const [trainFile, heldoutFile] = process.argv.slice(2);
if (!trainFile || !heldoutFile)
  throw new Error("usage: disjoint-splits.ts TRAIN.jsonl HELDOUT.jsonl");
const train = await loadTasks(trainFile);
const heldout = await loadTasks(heldoutFile);
const answer = (task: { expected: unknown }) => comparableText(canonicalJson(task.expected));
const pairs = nearDuplicates(
  indexInputs(
    [...train, ...heldout].map((task) => task.input),
    { dropShared: false },
  ),
  (index) => index < train.length,
);
const dropped = new Set(
  pairs
    .filter((pair) => answer(train[pair.left]) === answer(heldout[pair.right - train.length]))
    .map((pair) => pair.right - train.length),
);
const droppedLines = new Set([...dropped].map((index) => taskOrigin(heldout[index])?.line));
const lines = (await readFile(heldoutFile, "utf8")).split("\n");
const kept = lines.filter((line, index) => line.trim() !== "" && !droppedLines.has(index + 1));
await writeFile(heldoutFile, `${kept.join("\n")}\n`);
console.log(`held-out: ${heldout.length} tasks, ${dropped.size} near-duplicates of train dropped`);
