import type { Task } from "../config/task-schema.js";
import { HeldoutSeal, refuseHeldout } from "../diagnose/heldout-guard.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import type { EvaluateFn, Models } from "./run-context.js";
import type { StagePort } from "./stage-port.js";

/** Refuses held-out tasks (by id or input) at one stage's door. */
type Door = (stage: string, tasks: { ids: string[]; inputs: string[] }) => void;

/**
 * Seals the held-out split for a strategy: what it gets back calls the same stages, but every
 * stage door (diagnose, note, refine, reflect, training evaluation) refuses held-out tasks by id
 * or input — and hands the held-out tasks on to the stages that check them themselves — and
 * every refiner-role call is checked on the wire (`HeldoutSeal`) before it leaves. Held-out data
 * then reaches only the guard context and the final/gate measurements, whatever a strategy does.
 */
export function sealHeldout(options: {
  stages: StagePort;
  models: Models;
  evaluate: EvaluateFn;
  train: Task[];
  heldout: Task[];
  seedHarness: LoadedHarness;
}): { stages: StagePort; models: Models; evaluate: EvaluateFn } {
  const { heldout } = options;
  const seal = new HeldoutSeal({
    heldout,
    allowed: [
      ...options.train.map((task) => task.input),
      ...Object.values(options.seedHarness.files),
    ],
  });
  const door: Door = (stage, tasks) =>
    refuseHeldout({ heldout, taskIds: tasks.ids, inputs: tasks.inputs, stage });
  const models: Models = {
    ...options.models,
    refiner: sealedProvider(options.models.refiner, seal),
  };
  const evaluate: EvaluateFn = (request) => {
    door("training evaluation", {
      ids: request.tasks.map((task) => task.id),
      inputs: request.tasks.map((task) => task.input),
    });
    return options.evaluate(request);
  };
  return { stages: sealedStages({ stages: options.stages, heldout, door }), models, evaluate };
}

/** The stage port with a door before each stage, and the held-out tasks handed on to it. */
function sealedStages(options: { stages: StagePort; heldout: Task[]; door: Door }): StagePort {
  const { stages, heldout, door } = options;
  return {
    diagnose(request) {
      door("diagnose", {
        ids: [
          ...request.records.map((record) => record.taskId),
          ...request.tasks.map((task) => task.id),
        ],
        inputs: request.tasks.map((task) => task.input),
      });
      return stages.diagnose({ ...request, heldout });
    },
    refine(request) {
      door("refine", {
        ids: request.patterns.flatMap((pattern) => [
          ...pattern.taskIds,
          ...pattern.examples.map((example) => example.taskId),
        ]),
        inputs: [],
      });
      return stages.refine({ ...request, heldout });
    },
    reflect(request) {
      door("reflect", {
        ids: [
          ...request.records.map((record) => record.taskId),
          ...request.tasks.map((task) => task.id),
        ],
        inputs: request.tasks.map((task) => task.input),
      });
      return stages.reflect({ ...request, heldout });
    },
  };
}

/** A provider that runs the seal over every request's messages before passing it on. */
function sealedProvider(provider: ChatProvider, seal: HeldoutSeal): ChatProvider {
  return {
    model: provider.model,
    baseUrl: provider.baseUrl,
    variant: provider.variant,
    chat(request, options) {
      const text = request.messages.map((message) => message.content ?? "").join("\n");
      seal.check(text, request.purpose ?? "refiner call");
      return provider.chat(request, options);
    },
  };
}
