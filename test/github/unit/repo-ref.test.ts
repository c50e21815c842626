import { describe, expect, it } from "vitest";
import { fitBody, maxBodyChars } from "../../../src/github/repo-ref.js";

describe("fitBody", () => {
  it("leaves a body under the limit alone", () => {
    expect(fitBody("short")).toBe("short");
  });

  it("cuts a 1.4M-character comment between two table rows and keeps the run link below the cut", () => {
    const rows = Array.from(
      { length: 20_000 },
      (_, index) => `| group-${index} | 1 | 0 | \`t${index}\` | — |`,
    );
    const body = [
      "<!-- ecdysis-gate -->",
      "| Group | Fixed | Broken | Fixed tasks | Broken tasks |",
      "|---|---|---|---|---|",
      ...rows,
      "",
      "Details: https://github.com/o/r/actions/runs/1",
    ].join("\n");
    const footer = "Details: https://github.com/o/r/actions/runs/1";
    const fitted = fitBody(body.repeat(2), { footer });
    expect(body.repeat(2).length).toBeGreaterThan(1_400_000);
    expect(fitted.length).toBeLessThanOrEqual(maxBodyChars);
    const [kept, tail] = fitted.split("\n\n… (");
    for (const line of kept.split("\n").slice(3))
      expect(line).toMatch(/^\| group-\d+ \| 1 \| 0 \| `t\d+` \| — \|$/);
    expect(tail).toMatch(
      /^\d+ more lines not shown: the full report is in the workflow artifact\)\n\nDetails: https:\/\/github\.com\/o\/r\/actions\/runs\/1\n$/,
    );
  });

  it("a body without line breaks is still cut to the limit", () => {
    expect(fitBody("x".repeat(maxBodyChars + 10)).length).toBeLessThanOrEqual(maxBodyChars);
  });
});
