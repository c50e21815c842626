import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./testing/run-cli.js";

/**
 * The CLI outside the checkout: the packed tarball installed into a fresh prefix, offline (it
 * ships a bundled CLI and has no runtime dependencies), then used in a new git repository with
 * nothing of the checkout on PATH — every command run exactly as the tool printed it.
 */
let prefix: string;
let home: string;
let env: Record<string, string>;

function sh(command: string, cwd: string) {
  const run = spawnSync("sh", ["-c", command], { cwd, env, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The indented command lines under a line that ends with `:` and starts with `heading`. */
function printed(stdout: string, heading: string): string[] {
  const lines = stdout.split("\n");
  const at = lines.findIndex((line) => line.startsWith(heading));
  if (at < 0) return [];
  const after = lines.slice(at + 1);
  const end = after.findIndex((line) => !line.startsWith("  "));
  return after.slice(0, end < 0 ? undefined : end).map((line) => line.trim());
}

beforeAll(async () => {
  const work = await mkdtemp(join(tmpdir(), "ecdysis-install-"));
  prefix = join(work, "prefix");
  home = join(work, "home");
  await mkdir(home);
  const pack = spawnSync(
    "npm",
    ["pack", "--ignore-scripts", "--pack-destination", work, "--json"],
    { cwd: repoRoot, encoding: "utf8" },
  );
  expect(pack.status, pack.stderr).toBe(0);
  const [{ filename }] = JSON.parse(pack.stdout) as { filename: string }[];
  const install = spawnSync(
    "npm",
    [
      "install",
      "-g",
      "--prefix",
      prefix,
      "--offline",
      "--no-audit",
      "--no-fund",
      join(work, filename),
    ],
    {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, npm_config_cache: join(work, "npm-cache") },
    },
  );
  expect(install.status, install.stderr).toBe(0);
  // Only node and the installed bin: no checkout, no tsx, no node_modules/.bin.
  env = {
    PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    CI: "true",
  };
}, 120_000);

describe("the installed CLI, outside the checkout", () => {
  it("ships a bundled CLI with no runtime dependencies and prints its version", async () => {
    const installed = join(prefix, "lib", "node_modules", "ecdysis");
    const files = await readdir(installed);
    expect(files).not.toContain("node_modules");
    expect(files).not.toContain("src");
    expect(existsSync(join(installed, "dist", "cli.js"))).toBe(true);
    const { version } = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    const run = sh("ecdysis --version", home);
    expect(run.stdout).toBe(`ecdysis ${version}\n`);
  });

  it("init, eval, evolve and git apply from the repository root, each as printed", async () => {
    const repo = await mkdtemp(join(tmpdir(), "ecdysis-fresh-repo-"));
    for (const command of [
      "git init -q",
      "git config user.email you@example.com",
      "git config user.name you",
    ])
      expect(sh(command, repo).code).toBe(0);
    // plainspoken: the world whose init seed leaves harness deficiencies the loop can fix (on
    // quickstart, init's seed already states the answer format and what is left interlocks).
    const init = sh("ecdysis init agent --world plainspoken", repo);
    expect(init.code, init.stderr).toBe(0);
    const next = printed(init.stdout, "next:");
    expect(next).toEqual([
      "ecdysis eval --config agent/ecdysis.yml --out agent/.ecdysis/eval",
      "ecdysis evolve --config agent/ecdysis.yml --out agent/.ecdysis/evolve",
    ]);
    expect(sh("git add -A && git commit -qm 'agent harness'", repo).code).toBe(0);
    const evalRun = sh(next[0], repo);
    expect(evalRun.code, evalRun.stderr).toBe(0);
    expect(evalRun.stdout).toMatch(/^train: accuracy \d+\.\d%/);
    const evolve = sh(next[1], repo);
    expect(evolve.code, evolve.stderr).toBe(0);
    const apply = printed(
      evolve.stdout,
      "apply the evolved harness (paths relative to the repository root)",
    );
    expect(apply).toEqual(["git apply agent/.ecdysis/evolve/harness.patch"]);
    expect(sh(apply[0], repo).code).toBe(0);
    const changed = sh("git diff --name-only", repo).stdout.trim().split("\n");
    expect(changed).toContain("agent/harness/harness.yaml");
    // Caches and outputs stay out of git.
    expect(sh("git status --porcelain --untracked-files=all", repo).stdout).not.toContain(
      ".ecdysis",
    );
    const result = JSON.parse(
      await readFile(join(repo, "agent", ".ecdysis", "evolve", "result.json"), "utf8"),
    );
    expect(result.run.git.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(result.run.git.dirty).toBe(false);
  });
});
