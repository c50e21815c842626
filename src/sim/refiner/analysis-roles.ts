import { draw } from "../draw.js";
import { recognise } from "../families/recognise.js";
import type { World } from "../world-schema.js";
import {
  type Cause,
  canonicalCause,
  classifyFailure,
  type JsonObject,
  list,
  majority,
  objects,
  text,
} from "./evidence.js";
import {
  correctFix,
  type Fix,
  genericFix,
  type HarnessSeen,
  harnessSeen,
  itemHintFix,
} from "./fixes.js";
import { causeLabels, causeNotes, pick, renderAction } from "./wording.js";

/**
 * `failure_notes`: one note and cause label per failure, read from its signals. A plain-spoken
 * model words the note and the label of the same cause differently from failure to failure.
 */
export function failureNotes(world: World, block: JsonObject): JsonObject {
  const plain = world.refiner.style === "plainspoken";
  return {
    notes: objects(block.failures).map((failure) => {
      const cause = classifyFailure(failure);
      const key = [world.seed, "wording", text(failure.task), text(failure.output)];
      return {
        id: text(failure.id),
        note: plain ? pick(causeNotes[cause], draw(...key, "note")) : causeNotes[cause][0],
        cause: plain ? pick(causeLabels[cause], draw(...key, "label")) : cause,
      };
    }),
  };
}

/**
 * `pattern_merge`: groups with the same underlying cause become one pattern. Groups labelled
 * like the cause's largest group always join it; a group labelled otherwise (a paraphrase) is
 * recognised with chance `mergeRecall`, else it stays its own pattern named by its label — as a
 * model reading many groups at once sometimes misses that two wordings mean one thing.
 */
export function patternMerge(world: World, block: JsonObject): JsonObject {
  const read = objects(block.groups).map((group) => {
    const labels = [...list(group.causes), ...list(group.signals)].map(text).filter(Boolean);
    const cause =
      majority(list(group.causes).map((label) => canonicalCause(text(label)))) ??
      canonicalCause(labels.join(" "));
    return { group, cause, label: text(list(group.causes)[0]), labels };
  });
  const anchors = new Map<Cause, string>();
  for (const entry of [...read].sort((a, b) => Number(b.group.size) - Number(a.group.size)))
    if (!anchors.has(entry.cause)) anchors.set(entry.cause, entry.label);
  const byCause = new Map<Cause, JsonObject[]>();
  const alone: JsonObject[] = [];
  for (const { group, cause, label, labels } of read) {
    const examples = objects(group.examples).map((example) => text(example.task));
    const recognised =
      anchors.get(cause) === label ||
      draw(world.seed, "merge", ...labels, ...examples) < world.refiner.mergeRecall;
    if (!recognised) {
      alone.push(group);
      continue;
    }
    byCause.set(cause, [...(byCause.get(cause) ?? []), group]);
  }
  const module = (cause: Cause) => (cause === "wrong-answer" ? "prompt" : fixModules[cause]);
  return {
    patterns: [
      ...[...byCause.entries()].map(([cause, groups]) => ({
        name: cause,
        description: causeNotes[cause][0],
        groupKeys: groups.map((group) => text(group.key)),
        module: module(cause),
      })),
      ...alone.map((group) => {
        const label = text(list(group.causes)[0]) || "unexplained";
        return {
          name: label,
          description: text(objects(group.examples)[0]?.note) || `Failures labelled ${label}.`,
          groupKeys: [text(group.key)],
          module: module(canonicalCause(label)),
        };
      }),
    ],
  };
}

const fixModules: Record<Exclude<Cause, "wrong-answer">, string> = {
  "step-budget-exhausted": "agent_loop",
  "answer-format-drift": "completion",
  "gave-up-after-tool-error": "observation",
  "task-lost-in-context": "context",
  "arithmetic-slip": "tools",
  "unknown-task": "prompt",
};

/** Chance that a diagnosis backed by n instances finds the real cause. */
export function diagnosisAccuracy(world: World, n: number): number {
  const { accuracyAtOne, accuracyAtMany, instancesForMany, neutral } = world.refiner;
  if (neutral || n >= instancesForMany) return accuracyAtMany;
  if (n <= 1 || instancesForMany <= 1) return accuracyAtOne;
  return accuracyAtOne + ((accuracyAtMany - accuracyAtOne) * (n - 1)) / (instancesForMany - 1);
}

const fixSentences = [
  (action: string) => `The fix is to ${action}.`,
  (action: string) => `We should ${action}.`,
  (action: string) => `I would ${action}.`,
  (action: string) => `Recommended: ${action}.`,
];

/** A diagnosis's root cause in words: the mini-language `Fix:` when tidy, prose when plain-spoken. */
function rootCauseText(world: World, fix: Fix, unit: number): string {
  if (!fix.action)
    return world.refiner.style === "tidy"
      ? `${fix.explanation}.`
      : `${fix.explanation}. I see no harness-level fix for this.`;
  if (world.refiner.style === "tidy")
    return `${fix.explanation}. Fix: ${renderAction(fix.action, "tidy", unit)}`;
  return `${fix.explanation}. ${pick(fixSentences, unit)(renderAction(fix.action, "plainspoken", unit))}`;
}

/**
 * The causes a pattern's examples show, each with the distinct tasks that show it, most
 * frequent first. The evidence behind a diagnosis is what the role was shown — distinct
 * examples — never the support the prompt claims: a pattern that says "10 tasks" but shows one
 * example is one instance of evidence, and the same task shown twice is one too.
 */
function causesShown(
  examples: JsonObject[],
  config: HarnessSeen["config"],
): { cause: Cause; tasks: string[]; first: JsonObject }[] {
  const byCause = new Map<Cause, { tasks: Set<string>; first: JsonObject }>();
  for (const example of examples) {
    const cause = classifyFailure(example, config);
    const entry = byCause.get(cause) ?? { tasks: new Set<string>(), first: example };
    entry.tasks.add(text(example.task));
    byCause.set(cause, entry);
  }
  return [...byCause.entries()]
    .map(([cause, entry]) => ({ cause, tasks: [...entry.tasks], first: entry.first }))
    .sort((a, b) => b.tasks.length - a.tasks.length);
}

/**
 * `diagnosis`: per pattern, one diagnosis per distinct cause its examples show (as a model
 * reading a minibatch of unrelated failures names each), each right with an accuracy that grows
 * with the number of distinct examples showing that cause. A pattern without examples is
 * diagnosed from its name, as one instance.
 */
export function diagnosis(world: World, block: JsonObject, seed: number): JsonObject {
  const seen = harnessSeen(block);
  // Like a model told what was tried and failed: it avoids proposing a rejected change again,
  // and a prompt that lists other rejections is another prompt (another draw).
  const rejectedChanges = objects(block.rejected).flatMap((proposal) =>
    objects(proposal.changes).map((change) => text(change.change)),
  );
  return {
    diagnoses: objects(block.patterns).flatMap((pattern) => {
      const earlier = earlierAttempts(pattern);
      const avoid = {
        rejected: [...rejectedChanges, ...earlier.ruledOut],
        masked: earlier.masked,
      };
      const examples = objects(pattern.examples);
      const shown = causesShown(examples, seen.config);
      const causes =
        shown.length > 0
          ? shown
          : [
              {
                cause: canonicalCause(`${text(pattern.name)} ${text(pattern.description)}`),
                tasks: [""],
                first: undefined,
              },
            ];
      return causes.map(({ cause, tasks, first }) => {
        const n = tasks.length;
        const key = [
          world.seed,
          "diagnosis",
          text(pattern.id),
          ...examples.map((example) => text(example.task)),
          seed,
          ...rejectedChanges,
          ...earlier.ruledOut,
          ...earlier.masked,
          // A single cause keeps the key it always had; each of several gets its own draws.
          ...(causes.length > 1 ? [cause] : []),
        ];
        const { fix, unit } = chooseUnrejectedFix(
          { world, cause, n, key, example: first, seen },
          avoid,
        );
        return {
          patternId: text(pattern.id),
          rootCause: rootCauseText(world, fix, unit),
          module: fix.module,
          confidence: fix.action ? Number(Math.min(0.95, 0.5 + 0.1 * n).toFixed(2)) : 0.2,
        };
      });
    }),
  };
}

/** Outcomes of an earlier attempt on another harness, where another failure may have masked it. */
const maskedOutcomes = new Set(["inconclusive", "rejected on an earlier harness"]);

/**
 * What a pattern's own earlier attempts (`previousAttempts`, shown beside it) tell the model: the
 * changes rejected on this harness, and those tried on an earlier one (pruned there, or rejected
 * there), where the failure that sank them may have been fixed since.
 */
function earlierAttempts(pattern: JsonObject): { ruledOut: string[]; masked: string[] } {
  const attempts = objects(pattern.previousAttempts);
  const changes = (masked: boolean) =>
    attempts
      .filter((attempt) => maskedOutcomes.has(text(attempt.outcome)) === masked)
      .flatMap((attempt) => (Array.isArray(attempt.changes) ? attempt.changes.map(text) : []));
  return { ruledOut: changes(false), masked: changes(true) };
}

/**
 * Changes the model will not propose again: rejected on this harness, and tried on an earlier one
 * when it only guessed.
 */
interface Avoided {
  rejected: string[];
  masked: string[];
}

/**
 * Whether a tried change names the same action (same field, or the same added text): rejected
 * on this harness, or tried on an earlier one and only guessed (a model that sees the cause may
 * retry a fix another failure masked).
 */
function wasRejected(fix: Fix, avoid: Avoided): boolean {
  const action = fix.action;
  if (!action) return false;
  const marker = action.kind === "set" ? `${action.path}` : action.text;
  const names = (change: string) =>
    change.includes(marker) &&
    (action.kind !== "set" || change.includes(String(action.value).slice(0, 40)));
  return avoid.rejected.some(names) || (fix.guess === true && avoid.masked.some(names));
}

/** Draws a fix, re-thinking (a fresh draw) when the first idea is one the model avoids. */
function chooseUnrejectedFix(
  options: Parameters<typeof chooseFix>[0],
  avoid: Avoided,
): { fix: Fix; unit: number } {
  let key = options.key;
  let fix = chooseFix(options);
  for (let attempt = 1; attempt <= 3 && wasRejected(fix, avoid); attempt++) {
    key = [...options.key, "rethink", attempt];
    fix = chooseFix({ ...options, key });
  }
  const unit = draw(...key, "wording");
  if (wasRejected(fix, avoid))
    return {
      fix: {
        module: fix.module,
        explanation: "Every fix I can see was already tried and rejected",
        action: null,
      },
      unit,
    };
  return { fix, unit };
}

function chooseFix(options: {
  world: World;
  cause: Cause;
  n: number;
  key: (string | number)[];
  example: JsonObject | undefined;
  seen: HarnessSeen;
}): Fix {
  const { world, cause, n, key, example, seen } = options;
  const plainWrong = cause === "wrong-answer" || cause === "arithmetic-slip";
  const keyPhrase = example ? recognise(text(example.task))?.keyPhrase : undefined;
  const hintTendency = world.refiner.neutral ? 0 : world.refiner.hintTendencyAtOne;
  if (n <= 1 && plainWrong && keyPhrase && draw(...key, "hint") < hintTendency)
    return itemHintFix(keyPhrase, seen);
  if (draw(...key, "accuracy") < diagnosisAccuracy(world, n))
    return correctFix(cause, seen, {
      style: world.refiner.style,
      unit: draw(...key, "form"),
      promptFixes: world.refiner.promptFixes,
    });
  return genericFix(draw(...key, "generic"), seen);
}
