import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FolderLockedError } from "../errors/folder-locked-error.js";
import { acquireFolderLock, lockFileName } from "./folder-lock.js";

const folder = () => mkdtemp(path.join(tmpdir(), "ecdysis-lock-"));
const take = (dir: string, warn?: (message: string) => void) =>
  acquireFolderLock({ folder: dir, what: "output folder", purpose: "test run", warn });

/** The pid of a process that has exited (its lock is stale). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

const record = (pid: number, host = hostname()) =>
  `${JSON.stringify({ pid, host, startedAt: "2026-12-01T00:00:00.000Z", purpose: "ecdysis evolve --out x", token: "t" })}\n`;

describe("acquireFolderLock", () => {
  it("writes pid, host and start time; a second taker refuses naming the holder; release frees it", async () => {
    const dir = await folder();
    const lock = await take(dir);
    const held = JSON.parse(await readFile(path.join(dir, lockFileName), "utf8"));
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), purpose: "test run" });
    expect(Date.parse(held.startedAt)).not.toBeNaN();
    const second = take(dir);
    await expect(second).rejects.toBeInstanceOf(FolderLockedError);
    await expect(second).rejects.toThrow(
      new RegExp(
        `in use by test run \\(pid ${process.pid} on ${hostname()}, started .*another output folder.*delete .*${lockFileName}`,
      ),
    );
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
    await (await take(dir)).release();
  });

  it("of many concurrent takers exactly one holds the lock", async () => {
    const dir = await folder();
    const attempts = await Promise.allSettled(Array.from({ length: 12 }, () => take(dir)));
    const won = attempts.filter((attempt) => attempt.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const attempt of attempts)
      if (attempt.status === "rejected") expect(attempt.reason).toBeInstanceOf(FolderLockedError);
    expect((await readdir(dir)).sort()).toEqual([lockFileName]);
  });

  it("takes over the lock of a process that is gone (a killed run), with a warning", async () => {
    const dir = await folder();
    const pid = deadPid();
    await writeFile(path.join(dir, lockFileName), record(pid));
    const warnings: string[] = [];
    const lock = await take(dir, (message) => warnings.push(message));
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`took over .*\\(pid ${pid}, started .*no longer running`)),
    ]);
    expect(JSON.parse(await readFile(lock.file, "utf8")).pid).toBe(process.pid);
    await lock.release();
  });

  it("refuses a lock of another host (its process cannot be checked) and a damaged lock file", async () => {
    const dir = await folder();
    await writeFile(path.join(dir, lockFileName), record(deadPid(), "elsewhere.example"));
    await expect(take(dir)).rejects.toThrow(/on elsewhere\.example/);
    await writeFile(path.join(dir, lockFileName), "{not json");
    await expect(take(dir)).rejects.toThrow(/a lock file Ecdysis cannot read/);
  });
});
