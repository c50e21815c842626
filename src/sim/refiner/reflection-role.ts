import type { SimRequest } from "../sim-request.js";
import type { World } from "../world-schema.js";
import { diagnosis } from "./analysis-roles.js";
import { editor } from "./editor-role.js";
import { type JsonObject, objects, text } from "./evidence.js";
import { architect } from "./review-roles.js";

/**
 * `reflection` (the iterative baseline's one reflection call): the diagnosis and the edits in one
 * reply, read from the failing runs of the minibatch shown (the passing runs change nothing here:
 * the sim's diagnosis reads causes from failures). It thinks as the three roles would — a
 * diagnosis per cause the failures show, right with the world's accuracy for that many distinct
 * tasks; the fix it names; that fix as edits — in one answer. Sampled like a real model: above
 * temperature 0 the request's seed keys its draws, so a re-asked reflection can differ; at 0 every
 * seed answers as seed 0.
 */
export function reflection(world: World, request: SimRequest, block: JsonObject): JsonObject {
  const seed = request.temperature > 0 ? request.seed : 0;
  const failing = objects(block.minibatch).filter((run) => run.pass === false);
  const shared = { harness: block.harness ?? {}, rejected: block.rejected ?? [] };
  const pattern = {
    id: "minibatch",
    name: "observed-failure",
    description: "",
    examples: failing,
  };
  const diagnosed = diagnosis(world, { ...shared, patterns: [pattern] }, seed);
  const hms = architect(world, { ...shared, diagnoses: diagnosed.diagnoses });
  const drafted = editor(world, request, { harness: shared.harness, hms });
  return {
    diagnoses: objects(diagnosed.diagnoses).map((item) => ({
      rootCause: text(item.rootCause),
      module: text(item.module),
    })),
    // The reflector names no pattern ids: the caller's defaults fill them in.
    edits: objects(drafted.edits).map(({ patterns: _unnamed, ...edit }) => edit),
  };
}
