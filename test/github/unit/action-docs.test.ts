import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "../action-runner.js";

const action = parse(readFileSync(join(repoRoot, "action.yml"), "utf8")) as {
  outputs: Record<string, unknown>;
};
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const actionSection = readme.slice(
  readme.indexOf("## The GitHub Action"),
  readme.indexOf("\n## ", readme.indexOf("## The GitHub Action") + 1),
);
const actionDoc = readFileSync(join(repoRoot, "docs", "action.md"), "utf8");

/** The YAML blocks of a Markdown text. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe("the Action's documentation", () => {
  it("every gate workflow shown guards against forks", () => {
    const gates = [...yamlBlocks(actionSection), ...yamlBlocks(actionDoc)].filter((block) =>
      block.includes("mode: gate"),
    );
    gates.push(readFileSync(join(repoRoot, "docs", "workflows", "gate.yml"), "utf8"));
    expect(gates.length).toBeGreaterThanOrEqual(3);
    for (const gate of gates)
      expect(gate).toContain(
        "if: github.event.pull_request.head.repo.full_name == github.repository",
      );
  });

  it("the README's Action section and docs/action.md list every output of action.yml", () => {
    const names = Object.keys(action.outputs);
    expect(names).toContain("compare-url");
    for (const name of names) {
      expect(actionSection, `README lacks output ${name}`).toContain(`\`${name}\``);
      expect(actionDoc, `docs/action.md lacks output ${name}`).toContain(`\`${name}\``);
    }
  });
});
