import type { Task } from "../../config/task-schema.js";
import { agentReply } from "../agent-behaviour.js";
import type { SimMessage, SimReply } from "../sim-request.js";
import { type World, worldSchema } from "../world-schema.js";

/** A small world for tests; every deficiency off unless overridden. */
export function testWorld(overrides: {
  systematic?: Partial<World["deficiencies"]["systematic"]>;
  modelSpecific?: Partial<World["deficiencies"]["modelSpecific"]>;
  sampleDependent?: Partial<World["deficiencies"]["sampleDependent"]>;
  promptSensitivity?: number;
  ruleCost?: number;
  freeRules?: number;
  refiner?: Partial<World["refiner"]>;
  skeptic?: Partial<World["skeptic"]>;
  counts?: number;
}): World {
  const counts = { train: overrides.counts ?? 10, heldout: overrides.counts ?? 10 };
  return worldSchema.parse({
    name: "test",
    seed: 5,
    families: [
      { kind: "arithmetic", counts },
      { kind: "unit-conversion", counts },
      { kind: "multi-hop", counts, hops: { min: 1, max: 4 } },
      { kind: "date-reasoning", counts },
      { kind: "extraction", counts },
    ],
    deficiencies: {
      systematic: overrides.systematic ?? {},
      modelSpecific: {
        ...(overrides.modelSpecific ?? {}),
        ...(overrides.promptSensitivity !== undefined
          ? { promptSensitivity: overrides.promptSensitivity }
          : {}),
      },
      ...(overrides.sampleDependent ? { sampleDependent: overrides.sampleDependent } : {}),
    },
    ruleCost: overrides.ruleCost ?? 0,
    freeRules: overrides.freeRules ?? 4,
    refiner: overrides.refiner ?? {},
    skeptic: overrides.skeptic ?? {},
  });
}

/** Sends one agent request for a task to the in-process sim. */
export function ask(
  world: World,
  task: Task,
  options: {
    system?: string;
    tools?: string[];
    seed?: number;
    model?: string;
    after?: SimMessage[];
    drop?: boolean;
    /** Sampling temperature (default 0: deterministic, the seed does not matter). */
    temperature?: number;
  } = {},
): SimReply {
  const messages: SimMessage[] = [
    { role: "system", content: options.system ?? "You are a helpful assistant." },
  ];
  if (!options.drop) messages.push({ role: "user", content: task.input });
  messages.push(...(options.after ?? []));
  return agentReply(world, {
    model: options.model ?? "sim-1",
    messages,
    tools: options.tools ?? [],
    seed: options.seed ?? 0,
    temperature: options.temperature ?? 0,
  });
}

/** The `Answer:` value of a reply, or null. */
export function answerLine(reply: SimReply): string | null {
  return /Answer:\s*(.+)/.exec(reply.content ?? "")?.[1]?.trim() ?? null;
}
