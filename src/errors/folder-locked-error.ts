import { EcdysisError } from "./ecdysis-error.js";

/** Who holds a folder lock (`src/evolve/folder-lock.ts`). */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder started. */
  startedAt: string;
  /** What the holder is doing (`ecdysis evolve --out …`). */
  purpose: string;
}

/**
 * A folder (an evolve run's output folder) is in use by another live run: the second run stops
 * before it pays for anything. Names the holder, the lock file, and the way out.
 */
export class FolderLockedError extends EcdysisError {
  readonly code = "locked";
  override readonly exitCode = 3;
  constructor(
    readonly folder: string,
    readonly lockFile: string,
    readonly holder: LockHolder | undefined,
    readonly what: string,
  ) {
    const who = holder
      ? `${holder.purpose} (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt})`
      : "a lock file Ecdysis cannot read";
    super(
      `${folder}: the ${what} is in use by ${who}; wait for that run to finish, or use another ${what}. If no such run is going on (it ran on another machine, or the lock file is damaged), delete ${lockFile}`,
    );
    this.name = "FolderLockedError";
  }
}
