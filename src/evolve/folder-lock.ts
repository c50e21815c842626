import { randomBytes } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { link, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";
import { FolderLockedError, type LockHolder } from "../errors/folder-locked-error.js";

/** Name of the lock file inside a locked folder. */
export const lockFileName = ".ecdysis.lock";

const holderSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  startedAt: z.string(),
  purpose: z.string(),
  token: z.string(),
});

/** Locks held by this process, removed on exit whatever ends it (a signal handler's process.exit too). */
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const [file, token] of held) removeIfOurs(file, token);
  });
}

function removeIfOurs(file: string, token: string): void {
  try {
    if (JSON.parse(readFileSync(file, "utf8")).token === token) unlinkSync(file);
  } catch {
    // Gone already, or not ours any more.
  }
}

/** A folder held by this process until `release`. */
export interface FolderLock {
  readonly file: string;
  release(): Promise<void>;
}

/** Is `pid` a running process on this host? (EPERM: it runs, as another user.) */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the lock of `folder` (`<folder>/.ecdysis.lock`: pid, host, start time, purpose), created
 * atomically: the holder's record is written to a temporary file and hard-linked into place,
 * which fails when a lock exists, so two runs never both hold it and nobody reads half a record.
 * A lock of a live process, or of another host (whose processes cannot be checked), refuses with
 * a FolderLockedError naming the holder. A lock whose process on this host is gone (a killed
 * run) is stale: it is moved aside, the move checked to have taken that very lock (another run
 * may have taken it over first), and `warn` is told. Released by `release`, and on process exit.
 */
export async function acquireFolderLock(options: {
  folder: string;
  /** What the folder is, in the error message ("output folder", "cache"). */
  what: string;
  /** What this run is doing, shown to a second run (`ecdysis evolve --out …`). */
  purpose: string;
  warn?: (message: string) => void;
  now?: () => number;
}): Promise<FolderLock> {
  const { folder } = options;
  const file = path.join(folder, lockFileName);
  await mkdir(folder, { recursive: true });
  const token = randomBytes(12).toString("hex");
  const record = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date((options.now ?? Date.now)()).toISOString(),
    purpose: options.purpose,
    token,
  };
  const temporary = `${file}.${process.pid}.${token}.tmp`;
  await writeFile(temporary, `${JSON.stringify(record)}\n`);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(temporary, file);
        installExitHook();
        held.set(file, token);
        return { file, release: () => release(file, token) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = await readHolder(file);
      if (holder === "gone") continue;
      if (holder === undefined || holder.host !== hostname() || isAlive(holder.pid))
        throw new FolderLockedError(folder, file, holder, options.what);
      if (await takeOver(file, holder)) {
        options.warn?.(
          `${folder}: took over the ${options.what}'s lock of ${holder.purpose} (pid ${holder.pid}, started ${holder.startedAt}), which is no longer running`,
        );
      }
    }
    throw new FolderLockedError(folder, file, undefined, options.what);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readHolder(
  file: string,
): Promise<(LockHolder & { token: string }) | "gone" | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : undefined;
  }
  try {
    const parsed = holderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Moves a stale lock aside. True when the lock moved was that stale one; when another run had
 * replaced it in between, its lock is put back (unless yet another has appeared) and false returned.
 */
async function takeOver(file: string, stale: { token: string }): Promise<boolean> {
  const aside = `${file}.stale.${randomBytes(6).toString("hex")}`;
  try {
    await rename(file, aside);
  } catch {
    return false;
  }
  const moved = await readHolder(aside);
  if (typeof moved === "object" && moved.token === stale.token) {
    await unlink(aside).catch(() => undefined);
    return true;
  }
  await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return false;
}

async function release(file: string, token: string): Promise<void> {
  if (held.get(file) !== token) return;
  held.delete(file);
  removeIfOurs(file, token);
}
