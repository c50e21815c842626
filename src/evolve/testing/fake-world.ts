import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentAdapter, Trace } from "../../agent/types.js";
import { ecdysisConfigSchema, type LoadedConfig } from "../../config/config-schema.js";
import type { Task } from "../../config/task-schema.js";
import { ScriptedProvider } from "../../llm/scripted-provider.js";
import type { ChatRequest } from "../../llm/types.js";

/** One task of a fake world: its category and the deficiency (fault) that makes it fail, if any. */
export interface FakeTaskSpec {
  id: string;
  category: string;
  /** Fails until the harness rules contain `fix:<fault>` (`steps`: until max_steps ≥ 8). */
  fault?: string;
  /** Its expected answer is one the fake model never gives: it fails whatever the harness. */
  unanswerable?: boolean;
  /**
   * A name its input carries ("Rinmark Faolla"): a rule naming it makes the task pass whatever
   * its fault, as a hint for one item does (the sim's item slips).
   */
  item?: string;
}

/** Task JSON of a fake world: the fault and the answer are written into the input (a fake model reads them). */
export function fakeTask(spec: FakeTaskSpec): Task {
  return {
    id: spec.id,
    category: spec.category,
    input: `task ${spec.id} fault=${spec.fault ?? "none"} answer=${spec.id}-ok${spec.item ? ` about ${spec.item}.` : ""}`,
    expected: spec.unanswerable ? `${spec.id}-never` : `${spec.id}-ok`,
  };
}

/** The fault written in a fake task's input. */
export function faultOf(input: string): string {
  return /fault=(\S+)/.exec(input)?.[1] ?? "none";
}

/** The rules (`fix:…` lines) a request's system message carries. */
function rulesOf(request: ChatRequest): string[] {
  const system = request.messages.find((message) => message.role === "system");
  return (system?.content ?? "")
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2).trim());
}

/**
 * The fake agent model: like the sim, it answers only from the request. A task with a fault
 * answers correctly only when the system prompt has the rule `fix:<fault>`; a rule named in
 * `breaks` (rule → category) makes every task of that category answer wrongly, unless the rule
 * `fix:none` is also present (the fake diagnosis names the broken, fault-less tasks `none`).
 * A task with an `item` also passes when a rule names its item.
 */
export function fakeAgentModel(
  options: {
    breaks?: Record<string, string>;
    /**
     * Words its reply differently on every draw (the request seed), the answer unchanged, like a
     * real model sampling above temperature 0. Off: the same request gets the same reply.
     */
    variedWording?: boolean;
  } = {},
): ScriptedProvider {
  return new ScriptedProvider((request) => {
    const user = request.messages.find((message) => message.role === "user")?.content ?? "";
    const rules = rulesOf(request);
    const fault = faultOf(user);
    const category = /category=(\S+)/.exec(user)?.[1];
    const answer = /answer=(\S+)/.exec(user)?.[1] ?? "";
    const broken =
      !rules.includes("fix:none") &&
      Object.entries(options.breaks ?? {}).some(
        ([rule, target]) => rules.includes(rule) && category === target,
      );
    const item = /about ([^.]+)\./.exec(user)?.[1];
    const hinted = item !== undefined && rules.some((rule) => rule.includes(item));
    const fixed = fault === "none" || rules.includes(`fix:${fault}`) || hinted;
    const reply = fixed && !broken ? answer : "wrong";
    return { content: options.variedWording ? `${reply} (draw ${request.seed ?? 0})` : reply };
  }, "fake-agent");
}

/** A fake refiner model: every call succeeds with an empty JSON object (the fake stages decide what they return). */
export function fakeRefinerModel(): ScriptedProvider {
  return new ScriptedProvider(() => ({ content: "{}" }), "fake-refiner");
}

/** Agent adapter for fake worlds: one chat call with the harness rules as the system message; the reply is the answer. */
export const fakeAgentAdapter: AgentAdapter = {
  async run({ task, harness, provider, sampleIndex, signal }): Promise<Trace> {
    // A typed setting as a fix: a step budget of 8 or more acts as the rule `fix:steps`.
    const steps = (harness.config?.agent_loop.max_steps ?? 0) >= 8 ? "\n- fix:steps" : "";
    const rules = (harness.files["rules.md"] ?? "") + steps;
    const response = await provider.chat(
      {
        messages: [
          { role: "system", content: rules },
          { role: "user", content: `${task.input} category=${task.category}` },
        ],
        seed: sampleIndex,
        purpose: "agent",
      },
      { signal },
    );
    const output = response.content ?? "";
    // The answer is the reply's first word (a varied-wording reply adds words after it).
    const answer = output.split(" ")[0] ?? "";
    return {
      steps: [
        {
          assistant: output,
          toolCalls: [],
          promptTokens: response.usage.promptTokens,
          completionTokens: response.usage.completionTokens,
          latencyMs: 0,
        },
      ],
      events: [],
      output,
      answer,
      usage: { ...response.usage, llmCalls: 1, costUsd: response.costUsd },
      latencyMs: 0,
    };
  },
};

/** A project on disk for a fake world: harness folder, task files, config. */
export async function fakeProject(options: {
  train: FakeTaskSpec[];
  heldout: FakeTaskSpec[];
  /** `evolve` overrides; `evolve.ecdysis` is merged over the fake world's ecdysis defaults. */
  evolve?: Record<string, unknown>;
  gate?: Record<string, unknown>;
  /** The agent model's sampling temperature (default 0, the config's default). */
  temperature?: number;
  root?: string;
}): Promise<LoadedConfig> {
  const root = options.root ?? (await mkdtemp(path.join(tmpdir(), "ecdysis-evolve-")));
  await mkdir(path.join(root, "harness"), { recursive: true });
  await mkdir(path.join(root, "tasks"), { recursive: true });
  await writeFile(path.join(root, "harness", "harness.yaml"), "agent_loop:\n  max_steps: 4\n");
  await writeFile(path.join(root, "harness", "system.md"), "You answer tasks.\n");
  await writeFile(path.join(root, "harness", "rules.md"), "- Be concise.\n");
  const jsonl = (specs: FakeTaskSpec[]): string =>
    specs.map((spec) => JSON.stringify(fakeTask(spec))).join("\n");
  await writeFile(path.join(root, "tasks", "train.jsonl"), `${jsonl(options.train)}\n`);
  await writeFile(path.join(root, "tasks", "heldout.jsonl"), `${jsonl(options.heldout)}\n`);
  // The rollout key hashes the world file, so the fake world has one: one fixed absolute path
  // (read from any cwd; the same in every project, so config hashes of equal projects agree).
  // Written aside and renamed over it: test files in other workers write the same path, and a
  // reader hashing it mid-write (truncated) would key its rollouts apart from the others'.
  const world = path.join(tmpdir(), "ecdysis-fake-world.yaml");
  const aside = path.join(tmpdir(), `ecdysis-fake-world-${randomUUID()}.yaml`);
  await writeFile(aside, "# fake world: the fake agent model reads faults from the task text\n");
  await rename(aside, world);
  const config = ecdysisConfigSchema.parse({
    model: {
      provider: "sim",
      world,
      model: "fake-agent",
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    },
    harness: { dir: "harness", editable: ["rules.md", "harness.yaml"] },
    tasks: { train: "tasks/train.jsonl", heldout: "tasks/heldout.jsonl" },
    cacheDir: ".ecdysis/cache",
    concurrency: 4,
    evolve: {
      maxIterations: 4,
      ...options.evolve,
      ecdysis: {
        batchSize: 100,
        regressionSample: 4,
        alpha: 0.1,
        resamples: 0,
        ...(options.evolve?.ecdysis as Record<string, unknown> | undefined),
      },
    },
    gate: { ...options.gate },
  });
  return {
    config,
    path: path.join(root, "ecdysis.yml"),
    root,
    hash: createHash("sha256").update(JSON.stringify(config)).digest("hex"),
  };
}

/** `count` tasks with ids `<prefix>1…` spread round-robin over categories, all with one fault. */
export function specs(options: {
  prefix: string;
  count: number;
  fault?: string;
  categories?: string[];
}): FakeTaskSpec[] {
  const categories = options.categories ?? ["a", "b"];
  return Array.from({ length: options.count }, (_, index) => ({
    id: `${options.prefix}${index + 1}`,
    category: categories[index % categories.length],
    fault: options.fault,
  }));
}
