import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../../src/cli/testing/run-cli.js";
import { loadTasks } from "../../src/config/load-tasks.js";
import { limitTasks } from "../../src/eval/limit-tasks.js";
import { RolloutCache } from "../../src/eval/rollout-cache.js";
import type { RolloutRecord } from "../../src/eval/types.js";

/** The example Python agent (examples/python-agent). */
export const pythonExample = join(repoRoot, "examples", "python-agent");

/**
 * A copy of examples/python-agent whose agent model is the endpoint at `url` (the sim of the
 * example's world behind a test endpoint) and whose refiner is the embedded sim, so the
 * endpoint sees the agent's calls only. `replace` rewrites the config further.
 */
export async function pythonAgentProject(
  url: string,
  replace: (config: string) => string = (config) => config,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-gateway-project-"));
  await cp(pythonExample, dir, { recursive: true, filter: (path) => !path.includes(".ecdysis") });
  const file = join(dir, "ecdysis.yml");
  const config = await readFile(file, "utf8");
  const model = [
    "model:",
    "  provider: openai",
    `  baseUrl: ${url}`,
    "  model: sim-1",
    "  price: { promptPerMTok: 0.15, completionPerMTok: 0.6 }",
    "refiner:",
    "  provider: sim",
    "  model: sim-1",
    "  world: world.yaml",
    "harness:",
  ].join("\n");
  const replaced = config.replace(/^model:\n[\s\S]*?^harness:/m, model);
  if (replaced === config) throw new Error(`pythonAgentProject: no model block in ${file}`);
  await writeFile(file, replace(replaced));
  return dir;
}

/** Every rollout the run scored (its rollout cache): the records a report or a refiner sees. */
export async function scoredRollouts(dir: string): Promise<RolloutRecord[]> {
  const records: RolloutRecord[] = [];
  const cache = new RolloutCache(join(dir, ".ecdysis", "cache", "rollouts"));
  for await (const record of cache.records()) records.push(record);
  return records;
}

/** Files in the gateway's reply cache: the agent calls the gateway finished and kept. */
export async function gatewayReplies(dir: string): Promise<number> {
  const root = join(dir, ".ecdysis", "cache", "gateway");
  const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return files.filter((file) => file.isFile() && file.name.endsWith(".json")).length;
}

/**
 * The example's task files in `dir` cut to `perSplit` tasks each, as `--limit` picks them
 * (categories in turn): a quarter of the rollouts (CI time), the same learning (25% -> 94%
 * held-out on the example), and a `gate` that needs no flag to see the same tasks.
 */
export async function cutTasks(dir: string, perSplit = 16): Promise<void> {
  for (const split of ["train", "heldout"]) {
    const file = join(dir, "tasks", `${split}.jsonl`);
    const tasks = limitTasks(await loadTasks(file), perSplit);
    const lines = (await readFile(file, "utf8")).split("\n");
    const kept = new Set(tasks.map((task) => task.id));
    const chosen = lines.filter((line) => line.trim() && kept.has(JSON.parse(line).id));
    await writeFile(file, `${chosen.join("\n")}\n`);
  }
}
