import { parseHarnessYaml } from "../../config/harness-yaml.js";
import type { Task } from "../../config/task-schema.js";
import { harnessHash } from "../../harness/hash.js";
import type { LoadedHarness } from "../../harness/types.js";

/** A built-in harness held only in memory (for runtime tests): harness.yaml text plus files. */
export function inMemoryHarness(yaml: string, files: Record<string, string> = {}): LoadedHarness {
  const all = {
    "system.md": "You are a careful assistant.\n",
    "rules.md": "- Be brief.\n",
    ...files,
    "harness.yaml": yaml,
  };
  return {
    kind: "builtin",
    dir: "/virtual/harness",
    files: all,
    config: parseHarnessYaml("harness.yaml", yaml),
    hash: harnessHash({ kind: "builtin", files: all }),
  };
}

/** A task for runtime tests. */
export function testTask(input: string, id = "t1"): Task {
  return { id, input, expected: "x", category: "default" };
}
