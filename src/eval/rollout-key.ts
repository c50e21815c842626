import { createHash } from "node:crypto";
import { canonicalJson } from "../config/canonical-json.js";
import type { Task } from "../config/task-schema.js";

/**
 * Content address of one rollout: sha256 over the harness hash, the task's id, input and
 * expectation, the model, the sampling parameters and the sample index. Two processes that
 * would run the same rollout compute the same key, so shards and resumed runs share records.
 */
export function rolloutKey(parts: {
  harnessHash: string;
  task: Task;
  model: string;
  params: object;
  sampleIndex: number;
}): string {
  const material = canonicalJson({
    version: 1,
    harnessHash: parts.harnessHash,
    task: { id: parts.task.id, input: parts.task.input, expected: parts.task.expected },
    model: parts.model,
    params: parts.params,
    sampleIndex: parts.sampleIndex,
  });
  return createHash("sha256").update(material).digest("hex");
}
