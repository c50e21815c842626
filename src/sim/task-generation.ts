import type { Split, Task } from "../config/task-schema.js";
import { draw, seededRng } from "./draw.js";
import {
  arithmeticSlips,
  borderline,
  formatDrifts,
  hasPreamble,
  itemSlips,
  sampleDependent,
  statementOf,
  toolCallMalformed,
} from "./exposure.js";
import { generateArithmetic } from "./families/arithmetic.js";
import { generateDateReasoning } from "./families/date-reasoning.js";
import { generateExtraction } from "./families/extraction.js";
import { buildKnowledgeBase, generateMultiHop, renderKnowledge } from "./families/multi-hop.js";
import type { GeneratedItem } from "./families/problem.js";
import { recognise, statementMarker } from "./families/recognise.js";
import { generateUnitConversion } from "./families/unit-conversion.js";
import { NameBook } from "./names.js";
import { preamble } from "./preamble.js";
import type { World } from "./world-schema.js";

/** One deficiency a task is exposed to (the shape src/bench reads). */
export interface TaskDeficiency {
  kind: string;
  systematic: boolean;
  /** Item slips: the model name they are keyed by. */
  model?: string;
  /** Sample-dependent: slips only on some samples (`deficiencies.sampleDependent`). */
  sampled?: boolean;
}

/** Ground truth of one task: read only by the benchmark. */
export interface TaskTruth {
  id: string;
  split: Split;
  family: string;
  keyPhrase: string;
  expected: string | number;
  hops?: number;
  /** Deficiencies that hit the task under the seed harness. */
  deficiencies: TaskDeficiency[];
  /** Deficiencies that only bite once a mitigation changes the request (e.g. a calculator makes a tool call). */
  latent: string[];
}

/** Everything a world generates. */
export interface GeneratedWorld {
  train: Task[];
  heldout: Task[];
  knowledge: string;
  truth: TaskTruth[];
}

/** Generates a world's tasks, registry and ground truth, deterministically from its seed. */
export function generateWorld(world: World): GeneratedWorld {
  const names = new NameBook(seededRng(world.seed, "names"));
  const splits: Split[] = ["train", "heldout"];
  const multiHopCount = world.families
    .filter((family) => family.kind === "multi-hop")
    .reduce((sum, family) => sum + family.counts.train + family.counts.heldout, 0);
  const { kb, startPeople } = buildKnowledgeBase(
    seededRng(world.seed, "registry"),
    names,
    multiHopCount,
  );
  const result: GeneratedWorld = {
    train: [],
    heldout: [],
    knowledge: renderKnowledge(kb),
    truth: [],
  };
  let nextStart = 0;
  world.families.forEach((family, familyIndex) => {
    for (const split of splits) {
      for (let index = 0; index < family.counts[split]; index++) {
        const rng = seededRng(world.seed, "task", familyIndex, split, index);
        const slot = [world.seed, familyIndex, split, index] as const;
        let item: GeneratedItem;
        let withPreamble = false;
        if (family.kind === "multi-hop") {
          const hops = pickHops(world, family.hops, rng.next(), draw(...slot, "step-budget"));
          item = generateMultiHop({ rng, kb, start: startPeople[nextStart++], hops });
        } else {
          item = generators[family.kind](rng, names);
        }
        // Only tool-using families take more than one turn, so only they can lose a long statement.
        const multiTurn =
          family.kind === "multi-hop" ||
          family.kind === "arithmetic" ||
          family.kind === "unit-conversion";
        withPreamble =
          multiTurn &&
          draw(...slot, "context-loss") < world.deficiencies.systematic["context-loss"];
        const id = `${family.kind}-${split === "train" ? "t" : "h"}${familyIndex}-${String(index).padStart(3, "0")}`;
        const input = withPreamble
          ? `${preamble(rng, Math.ceil(world.seedHarness.contextChars * 1.3))}${statementMarker}${item.question}`
          : item.question;
        const task: Task = { id, input, expected: item.expected, category: family.kind };
        if (item.scorer) task.scorer = item.scorer;
        result[split].push(task);
        result.truth.push(truthOf({ world, task, item, split }));
      }
    }
  });
  return result;
}

const generators = {
  arithmetic: generateArithmetic,
  "unit-conversion": generateUnitConversion,
  "date-reasoning": generateDateReasoning,
  extraction: generateExtraction,
};

function pickHops(
  world: World,
  range: { min: number; max: number },
  unit: number,
  longDraw: number,
): number {
  const min = Math.min(range.min, range.max);
  const max = Math.max(range.min, range.max);
  // A chain is "long" when it needs more turns (hops + answer) than the seed step budget.
  const longFrom = world.seedHarness.maxSteps;
  const wantLong = longDraw < world.deficiencies.systematic["step-budget"];
  const [low, high] = wantLong
    ? [Math.max(min, longFrom), max]
    : [min, Math.min(max, longFrom - 1)];
  const [from, to] = low <= high ? [low, high] : [min, max];
  return from + Math.floor(unit * (to - from + 1));
}

function truthOf(options: {
  world: World;
  task: Task;
  item: GeneratedItem;
  split: Split;
}): TaskTruth {
  const { world, task, item, split } = options;
  const statement = statementOf(task.input);
  const problem = recognise(task.input);
  if (!problem) throw new Error(`sim: generated task ${task.id} is not recognisable: ${statement}`);
  const deficiencies: TaskDeficiency[] = [];
  const latent: string[] = [];
  const add = (kind: string, sampled = false) =>
    deficiencies.push({ kind, systematic: true, ...(sampled ? { sampled } : {}) });
  if (formatDrifts(world, statement))
    add("format-drift", sampleDependent(world, "format-drift", statement));
  if (arithmeticSlips(world, problem, statement))
    add("arithmetic-slip", sampleDependent(world, "arithmetic-slip", statement));
  if (item.hops !== undefined && item.hops + 1 > world.seedHarness.maxSteps) add("step-budget");
  if (toolCallMalformed(world, problem, statement)) {
    if (problem.kind === "chain") add("tool-error-giveup");
    else latent.push("tool-error-giveup");
  }
  if (hasPreamble(task.input)) {
    if (problem.kind === "chain") add("context-loss");
    else latent.push("context-loss");
  }
  for (const model of world.groundTruthModels) {
    if (itemSlips(world, model, statement))
      deficiencies.push({ kind: "item-slip", systematic: false, model });
    // Borderline: right or wrong depending on the exact system prompt (either way).
    if (borderline(world, model, statement))
      deficiencies.push({ kind: "prompt-sensitivity", systematic: false, model });
  }
  return {
    id: task.id,
    split,
    family: problem.family,
    keyPhrase: item.keyPhrase,
    expected: item.expected,
    hops: item.hops,
    deficiencies,
    latent,
  };
}
