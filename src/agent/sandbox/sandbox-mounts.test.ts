import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandMounts, type Exposure, exposureOf, exposureProblem } from "./sandbox-mounts.js";

describe("exposureProblem", () => {
  const exposure = exposureOf({
    root: "/work/project",
    taskFiles: ["/work/project/tasks/heldout.jsonl", "/data/train.jsonl"],
    env: { RUNNER_TEMP: "/runner/temp", GITHUB_ENV: "/runner/temp/cmd/set_env" },
  });

  it("refuses what holds the project, a task file, the runner's temp or a job file", () => {
    for (const path of [
      "/work/project",
      "/work",
      "/data",
      "/runner",
      "/runner/temp/cmd",
      "/work/project/tasks",
      "/",
    ])
      expect(exposureProblem(path, exposure), path).toBeDefined();
  });

  it("refuses a .git folder and what lies in one", () => {
    expect(exposureProblem("/work/project/.git", exposure)).toMatch(/\.git/);
    expect(exposureProblem("/work/project/.git/config", exposure)).toMatch(/\.git/);
  });

  it("allows a folder inside the project that holds none of them", () => {
    for (const path of [
      "/work/project/.venv",
      "/work/project/node_modules",
      "/opt/hostedtoolcache/Python/3.12/x64",
    ])
      expect(exposureProblem(path, exposure), path).toBeUndefined();
  });
});

describe("commandMounts", () => {
  let dir: string;
  let exposure: Exposure;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ecdysis-mounts-"));
    const script = async (path: string, text: string) => {
      await mkdir(join(path, ".."), { recursive: true });
      await writeFile(path, text);
      await chmod(path, 0o755);
    };
    // A version manager's shim (pyenv's), an installation's bin/, a venv linking to it.
    await script(
      join(dir, "pyenv", "shims", "python3"),
      "#!/usr/bin/env bash\nexec pyenv exec python3\n",
    );
    await script(join(dir, "toolcache", "Python", "bin", "python3.12"), "binary");
    await mkdir(join(dir, "project", ".venv", "bin"), { recursive: true });
    await symlink(
      join(dir, "toolcache", "Python", "bin", "python3.12"),
      join(dir, "project", ".venv", "bin", "python"),
    );
    await script(join(dir, "candidate", "agent.py"), "#!/usr/bin/env python3\nprint(1)\n");
    await script(join(dir, "project", "run.sh"), "#!/bin/sh\n");
    exposure = exposureOf({
      root: join(dir, "project"),
      taskFiles: [join(dir, "project", "tasks", "heldout.jsonl")],
      env: {},
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const mounts = (argv0: string, path = "") =>
    commandMounts({ argv0, cwd: join(dir, "candidate"), path, exposure });

  it("mounts a version manager's root for a shim found on PATH, not the home around it", async () => {
    expect(await mounts("python3", `/nonexistent:${join(dir, "pyenv", "shims")}`)).toEqual([
      join(dir, "pyenv"),
    ]);
  });

  it("mounts a venv and the installation its interpreter links to", async () => {
    expect(await mounts(join(dir, "project", ".venv", "bin", "python"))).toEqual([
      join(dir, "project", ".venv"),
      join(dir, "toolcache", "Python"),
    ]);
  });

  it("follows a script's #! to its interpreter; the candidate's own files need nothing", async () => {
    expect(await mounts("./agent.py", join(dir, "pyenv", "shims"))).toEqual([join(dir, "pyenv")]);
  });

  it("mounts a file beside the project alone: its folder is the project", async () => {
    expect(await mounts(join(dir, "project", "run.sh"))).toEqual([join(dir, "project", "run.sh")]);
  });

  it("needs nothing for a system program", async () => {
    expect(await mounts("sh", "/usr/bin:/bin")).toEqual([]);
  });
});
