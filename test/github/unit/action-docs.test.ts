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

describe("the Action's documentation", () => {
  it("the README's Action section and docs/action.md list every output of action.yml", () => {
    const names = Object.keys(action.outputs);
    expect(names).toContain("compare-url");
    for (const name of names) {
      expect(actionSection, `README lacks output ${name}`).toContain(`\`${name}\``);
      expect(actionDoc, `docs/action.md lacks output ${name}`).toContain(`\`${name}\``);
    }
  });
});
