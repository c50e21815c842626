import { createHash } from "node:crypto";
import type { Task } from "../config/task-schema.js";
import { InputError } from "../errors/input-error.js";

/** Shard `index` (0-based) of `count`: a deterministic slice by a hash of the task id. */
export function shardTasks(tasks: Task[], shard: { index: number; count: number }): Task[] {
  if (!Number.isInteger(shard.count) || shard.count < 1 || !Number.isInteger(shard.index)) {
    throw new InputError("--shard", `invalid shard ${shard.index}/${shard.count}`);
  }
  if (shard.index < 0 || shard.index >= shard.count) {
    throw new InputError("--shard", `shard index ${shard.index} is outside 0..${shard.count - 1}`);
  }
  return tasks.filter((task) => shardOf(task.id, shard.count) === shard.index);
}

/** The shard a task id belongs to among `count`. */
export function shardOf(taskId: string, count: number): number {
  const digest = createHash("sha256").update(taskId).digest();
  return digest.readUInt32BE(0) % count;
}

/** Parses `I/N` (1-based, as users and Actions matrices write it) into a 0-based shard. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) throw new InputError("--shard", `expected I/N (e.g. 1/4), got '${text}'`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) {
    throw new InputError("--shard", `shard ${text} is outside 1/${count}..${count}/${count}`);
  }
  return { index: index - 1, count };
}
