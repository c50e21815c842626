import { access, cp, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./testing/run-cli.js";

describe("--out that is a file", () => {
  it.each(["evolve", "eval"])(
    "ecdysis %s: an InputError naming --out before any rollout",
    async (command) => {
      const dir = await mkdtemp(join(tmpdir(), "ecdysis-out-file-"));
      // Not the example's own .ecdysis: `npm start` leaves its cache there.
      const example = join(repoRoot, "examples", "quickstart");
      await cp(example, dir, {
        recursive: true,
        filter: (source) => !relative(example, source).split(sep).includes(".ecdysis"),
      });
      await writeFile(join(dir, "results.txt"), "not a folder\n");
      for (const out of ["results.txt", "results.txt/run"]) {
        const run = await runCli([command, "--config", "ecdysis.yml", "--out", out], { cwd: dir });
        expect(run.code).toBe(2);
        expect(run.stderr).toContain("results.txt");
        expect(run.stderr).toMatch(/--out (names a file|.* lies under a file)/);
        expect(run.stderr).not.toContain("EEXIST");
      }
      // Nothing ran: no rollout was cached.
      await expect(access(join(dir, ".ecdysis", "cache"))).rejects.toThrow();
    },
  );
});
