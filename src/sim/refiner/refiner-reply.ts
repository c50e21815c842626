import type { SimRequest } from "../sim-request.js";
import type { World } from "../world-schema.js";
import { diagnosis, failureNotes, patternMerge } from "./analysis-roles.js";
import { editor } from "./editor-role.js";
import { evidenceBlock, type JsonObject } from "./evidence.js";
import { judge } from "./judge.js";
import { reflection } from "./reflection-role.js";
import { architect, skeptic } from "./review-roles.js";

/** Guesses the role from the evidence block's keys (for servers that drop response_format). */
export function inferSchemaName(block: JsonObject): string | undefined {
  if ("minibatch" in block) return "reflection";
  if ("failures" in block) return "failure_notes";
  if ("reference" in block && "answer" in block) return "judgement";
  if ("groups" in block) return "pattern_merge";
  if ("hms" in block) return "diagnoses" in block ? "critique" : "edits";
  if ("diagnoses" in block) return "hms";
  if ("patterns" in block) return "diagnosis";
  return undefined;
}

/** The refiner-side sim: answers a role request by schema name from its evidence block only. */
export function refinerReply(
  world: World,
  request: SimRequest,
  schemaName: string | undefined,
): JsonObject {
  const block = evidenceBlock(request);
  switch (schemaName ?? inferSchemaName(block)) {
    case "failure_notes":
      return failureNotes(world, block);
    case "pattern_merge":
      return patternMerge(world, block);
    case "diagnosis":
      return diagnosis(world, block, request.seed);
    case "hms":
      return architect(world, block);
    case "critique":
      return skeptic(world, block, request.seed);
    case "edits":
      return editor(world, request, block);
    case "reflection":
      return reflection(world, request, block);
    case "judgement":
      return judge(request, block);
    default:
      return {};
  }
}
