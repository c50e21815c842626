import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing/run-cli.js";

// Issue #10 item 10: bad input gets a clear error naming file, line and field, before any
// rollout and before anything is written — never "unexpected error".

let template: string;

beforeAll(async () => {
  template = await mkdtemp(join(tmpdir(), "ecdysis-bad-input-template-"));
  expect((await runCli(["init", ".", "--world", "quickstart"], { cwd: template })).code).toBe(0);
});

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-bad-input-"));
  await cp(template, dir, { recursive: true });
  return dir;
}

async function editConfig(dir: string, edit: (text: string) => string): Promise<void> {
  const file = join(dir, "ecdysis.yml");
  await writeFile(file, edit(await readFile(file, "utf8")));
}

/** Line (1-based) of the first line of the config that starts with `prefix`. */
async function configLine(dir: string, prefix: string): Promise<number> {
  const lines = (await readFile(join(dir, "ecdysis.yml"), "utf8")).split("\n");
  return lines.findIndex((line) => line.trimStart().startsWith(prefix)) + 1;
}

async function evalIn(dir: string) {
  const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out"], { cwd: dir });
  expect(run.stderr).not.toContain("unexpected error");
  expect(run.stderr).not.toContain("rollouts…");
  expect(existsSync(join(dir, "out"))).toBe(false);
  return run;
}

describe("bad input: a clear InputError, nothing run or written", () => {
  it("billion-laughs YAML", async () => {
    const dir = await project();
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (const name of "bcdefg") {
      const previous = String.fromCharCode(name.charCodeAt(0) - 1);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    await writeFile(join(dir, "ecdysis.yml"), `${levels.join("\n")}\nmodel: *g\n`);
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ecdysis\.yml: .*aliases/);
  });

  it("a cacheDir that is a file", async () => {
    const dir = await project();
    await writeFile(join(dir, "a-file"), "not a folder\n");
    await editConfig(dir, (text) => text.replace("cacheDir: .ecdysis/cache", "cacheDir: a-file"));
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `ecdysis.yml: line ${await configLine(dir, "cacheDir")}: 'cacheDir'`,
    );
    expect(run.stderr).toMatch(/is a file, not a folder/);
  });

  it("a config that is not UTF-8", async () => {
    const dir = await project();
    const file = join(dir, "ecdysis.yml");
    const text = await readFile(file);
    const at = text.indexOf("model: sim-1");
    await writeFile(
      file,
      Buffer.concat([text.subarray(0, at), Buffer.from([0xe9]), text.subarray(at)]),
    );
    const line = text.subarray(0, at).toString().split("\n").length;
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`ecdysis.yml: line ${line}: byte ${at} (0xe9) is not valid UTF-8`);
  });

  it("a tasks file that is not UTF-8", async () => {
    const dir = await project();
    const file = join(dir, "tasks", "heldout.jsonl");
    const lines = (await readFile(file, "utf8")).split("\n");
    lines[3] = lines[3].replace("coins", "co\u0000ins");
    const bytes = Buffer.from(lines.join("\n"));
    const at = bytes.indexOf(0);
    bytes[at] = 0xff;
    await writeFile(file, bytes);
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`heldout.jsonl: line 4: byte ${at} (0xff) is not valid UTF-8`);
  });

  it("a harness folder that is a symlink out of the repository", async () => {
    const dir = await project();
    const elsewhere = await mkdtemp(join(tmpdir(), "ecdysis-elsewhere-"));
    await cp(join(dir, "harness"), elsewhere, { recursive: true });
    await symlink(elsewhere, join(dir, "linked-harness"));
    await editConfig(dir, (text) => text.replace("dir: harness", "dir: linked-harness"));
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`line ${await configLine(dir, "dir:")}: 'harness.dir'`);
    expect(run.stderr).toMatch(/outside the repository/);
  });

  it("a per-task scorer with invalid regex flags", async () => {
    const dir = await project();
    const file = join(dir, "tasks", "train.jsonl");
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    const task = JSON.parse(lines[4]);
    lines[4] = JSON.stringify({
      ...task,
      expected: "^\\d+$",
      scorer: { kind: "regex", flags: "iq" },
    });
    await writeFile(file, `${lines.join("\n")}\n`);
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("train.jsonl: line 5: 'scorer.flags'");
  });

  it("a 10 MB config value", async () => {
    const dir = await project();
    await editConfig(dir, (text) =>
      text.replace("model: sim-1", `model: ${"m".repeat(10_000_000)}`),
    );
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /ecdysis\.yml: the config file is 100\d{5} bytes; at most \d+ bytes/,
    );
  });

  it("a 200 KB config value in a small enough file", async () => {
    const dir = await project();
    await editConfig(dir, (text) => text.replace("model: sim-1", `model: ${"m".repeat(200_000)}`));
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line \d+: 'model\.model': the value is 200000 characters; at most/);
  });

  it("a missing tasks file, tied to its config line and field", async () => {
    const dir = await project();
    await editConfig(dir, (text) =>
      text.replace("train: tasks/train.jsonl", "train: tasks/trian.jsonl"),
    );
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `ecdysis.yml: line ${await configLine(dir, "train:")}: 'tasks.train'`,
    );
    expect(run.stderr).toContain("trian.jsonl");
  });

  it("a missing world file, tied to its config line and field", async () => {
    const dir = await project();
    await editConfig(dir, (text) => text.replace("world: quickstart", "world: ./worlds/mine.yaml"));
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `ecdysis.yml: line ${await configLine(dir, "world:")}: 'model.world'`,
    );
    expect(run.stderr).toContain("mine.yaml");
  });

  it("invisible characters in the input are shown escaped in the error", async () => {
    const dir = await project();
    await editConfig(dir, (text) => `${text}samp\u200Bles: 3\n`);
    const run = await evalIn(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("samp\\u{200B}les");
    expect(run.stderr).not.toContain("\u200B");
  });
});

describe("bad input: the same errors in evolve, before the journal is written", () => {
  it("a cacheDir that is a file", async () => {
    const dir = await project();
    await writeFile(join(dir, "a-file"), "x\n");
    await mkdir(join(dir, "unused"));
    await editConfig(dir, (text) =>
      text.replace("cacheDir: .ecdysis/cache", "cacheDir: a-file/sub"),
    );
    const run = await runCli(["evolve", "--config", "ecdysis.yml", "--out", "out"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/'cacheDir': .*a-file.* is a file, not a folder/);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
