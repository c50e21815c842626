import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A commented harness.yaml used by tests: react loop, calculator on, lookup over knowledge.md. */
const fixtureHarnessYaml = `# Seed harness for tests
agent_loop:
  style: react # tool loop
  max_steps: 4
tools:
  calculator:
    enabled: true
    description: Evaluate an arithmetic expression.
  lookup:
    enabled: true
    files: [knowledge.md]
completion:
  format_instruction: "End with a final line 'Answer: <value>'."
`;

/** Default files of the test harness (relative path → content). */
export const fixtureFiles: Record<string, string> = {
  "harness.yaml": fixtureHarnessYaml,
  "system.md": "You are a careful assistant.\n",
  "rules.md": "# Rules\n\n- Show your work.\n- Use the calculator for arithmetic.\n",
  "knowledge.md":
    "## Ada Lovelace\n- born: 1815\n- field: mathematics\n\n## Paris\n- country: France\n",
};

/** Creates a temporary harness folder with the given files (defaults: `fixtureFiles`). */
export async function makeHarnessDir(
  files: Record<string, string> = fixtureFiles,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-harness-"));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}
