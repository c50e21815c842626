import { randomBytes } from "node:crypto";
import fs, { closeSync, openSync, readSync } from "node:fs";
import { type FileHandle, mkdir, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * Where one stored line lives: its segment file, byte offset and length (newline excluded), and
 * the next copy of the same key, tried when this one does not hold a valid record.
 */
interface Location {
  file: string;
  offset: number;
  length: number;
  next?: Location;
}

/** Segment files are named so that copies from many machines never collide in one folder. */
export const segmentPattern = /^rollouts-[0-9a-z]+-[0-9a-f]+\.jsonl$/;
const keyPrefix = Buffer.from('{"key":"');
const newline = 0x0a;
const chunkBytes = 1 << 20;

/**
 * Append-only JSON-lines segments under one folder: every writer appends to a segment file of
 * its own (created on its first write), so writers in separate processes or on separate machines
 * never touch each other's files, and merging two folders is copying their files into one. The
 * folder is indexed once (key → segment, offset, length) on first use; a read is one positioned
 * read, a miss no system call, and concurrent writes are coalesced into one `writev`. A line a
 * killed process left unfinished (no newline) is not indexed. A writer sees what its folder held
 * when it was first used plus what it wrote itself; what other writers add later, the next open
 * sees.
 */
export class RolloutSegments {
  private index?: Promise<Map<string, Location>>;
  /** This writer's segment file, named on its first append. */
  private file?: string;
  /** Its descriptor while writes come; closed after a second without any. */
  private fd?: Promise<number>;
  private idle?: NodeJS.Timeout;
  private created = false;
  private ownEnd = 0;
  private batch: { buffer: Buffer; key: string; location: Location }[] = [];
  private batchWritten?: Promise<void>;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly dir: string) {}

  /** The key → location index, read from the folder's segment files the first time it is needed. */
  private locations(): Promise<Map<string, Location>> {
    this.index ??= indexFolder(this.dir);
    return this.index;
  }

  /** Keys of every complete line, in no particular order. */
  async keys(): Promise<string[]> {
    return [...(await this.locations()).keys()];
  }

  /**
   * The first readable stored line of `key` (without its newline), or undefined when there is
   * none. A copy whose file is gone or unreadable is forgotten.
   */
  async read(key: string): Promise<string | undefined> {
    const locations = await this.locations();
    for (let location = locations.get(key); location; location = locations.get(key)) {
      const text = readAt(location);
      if (text !== undefined) return text;
      await this.forget(key);
    }
    return undefined;
  }

  /** Forgets the line `read` returned, which did not hold a valid record: its next copy is read next. */
  async forget(key: string): Promise<void> {
    const locations = await this.locations();
    const next = locations.get(key)?.next;
    if (next) locations.set(key, next);
    else locations.delete(key);
  }

  /** Appends `text` (one JSON object starting with its key, no newline) as the line of `key`. */
  async append(key: string, text: string): Promise<void> {
    const locations = await this.locations();
    this.file ??= join(
      this.dir,
      `rollouts-${process.pid.toString(36)}-${randomBytes(6).toString("hex")}.jsonl`,
    );
    const buffer = Buffer.from(`${text}\n`);
    const location = { file: this.file, offset: this.ownEnd, length: buffer.length - 1 };
    this.ownEnd += buffer.length;
    this.batch.push({ buffer, key, location });
    this.batchWritten ??= this.writeBatch(locations);
    await this.batchWritten;
  }

  /** Writes whatever was appended since the last write, after that write, as one `writev`. */
  private writeBatch(locations: Map<string, Location>): Promise<void> {
    const written = this.writing.then(async () => {
      const entries = this.batch;
      this.batch = [];
      this.batchWritten = undefined;
      clearTimeout(this.idle);
      const buffers = entries.map((entry) => entry.buffer);
      const total = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
      const bytesWritten = await writevAll(await this.descriptor(), buffers);
      if (bytesWritten !== total)
        throw new Error(`rollout cache: wrote ${bytesWritten} of ${total} bytes (disk full?)`);
      // A fresh write is read first; copies indexed before stay behind it.
      for (const entry of entries)
        locations.set(entry.key, { ...entry.location, next: locations.get(entry.key) });
      this.idle = setTimeout(() => void this.closeWhenIdle(), 1000);
      this.idle.unref();
    });
    this.writing = written.catch(() => undefined);
    return written;
  }

  /** The open descriptor of this writer's segment (created exclusively on the first write). */
  private descriptor(): Promise<number> {
    this.fd ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const flags = this.created ? "a" : "ax";
      this.created = true;
      return openFile(this.file as string, flags);
    })().catch((error: unknown) => {
      this.fd = undefined;
      throw error;
    });
    return this.fd;
  }

  /** Closes the segment's descriptor when no write is queued (the next write reopens it). */
  private async closeWhenIdle(): Promise<void> {
    if (this.batch.length > 0 || !this.fd) return;
    const fd = this.fd;
    this.fd = undefined;
    await closeFile(await fd).catch(() => undefined);
  }

  /** Resolves once every append made so far is written. */
  async flush(): Promise<void> {
    await this.batchWritten;
    await this.writing;
  }

  /** Writes what is pending and closes the segment's descriptor (a later append reopens it). */
  async close(): Promise<void> {
    await this.flush();
    clearTimeout(this.idle);
    await this.closeWhenIdle();
  }
}

/** One line read from its segment; undefined when the file is gone or shorter than indexed. */
function readAt(location: Location): string | undefined {
  // A few kilobytes from the page cache: synchronous is cheaper than three thread-pool trips.
  const buffer = Buffer.alloc(location.length);
  let fd: number | undefined;
  try {
    fd = openSync(location.file, "r");
    const bytesRead = readSync(fd, buffer, 0, location.length, location.offset);
    return bytesRead === location.length ? buffer.toString("utf8") : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// Plain descriptors, not FileHandles: a cache nobody closes must not warn when collected.
const openFile = promisify(fs.open) as (file: string, flags: string) => Promise<number>;
const closeFile = promisify(fs.close);
const writev = (fd: number, buffers: Buffer[]) =>
  new Promise<number>((resolve, reject) =>
    fs.writev(fd, buffers, (error, written) => (error ? reject(error) : resolve(written))),
  );

/** Writes every buffer, continuing after a short write. */
async function writevAll(fd: number, buffers: Buffer[]): Promise<number> {
  let written = 0;
  let rest = buffers;
  while (rest.length > 0) {
    const count = await writev(fd, rest);
    if (count === 0) break;
    written += count;
    let skip = count;
    while (rest.length > 0 && skip >= rest[0].length) {
      skip -= rest[0].length;
      rest = rest.slice(1);
    }
    if (skip > 0) rest = [rest[0].subarray(skip), ...rest.slice(1)];
  }
  return written;
}

/** Indexes every segment file of `dir` (none when the folder does not exist). */
async function indexFolder(dir: string): Promise<Map<string, Location>> {
  const locations = new Map<string, Location>();
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => segmentPattern.test(name)).sort();
  } catch {
    return locations;
  }
  for (const name of names) await indexSegment(join(dir, name), locations);
  return locations;
}

/** Adds a copy of `key` after those already known. */
function add(locations: Map<string, Location>, key: string, location: Location): void {
  let last = locations.get(key);
  if (!last) {
    locations.set(key, location);
    return;
  }
  while (last.next) last = last.next;
  last.next = location;
}

/** Adds the complete lines of one segment to `locations` (copies of a key in file order). */
async function indexSegment(file: string, locations: Map<string, Location>): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch {
    return;
  }
  try {
    let carry = Buffer.alloc(0);
    let carryOffset = 0;
    for (;;) {
      const chunk = Buffer.alloc(chunkBytes);
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, carryOffset + carry.length);
      if (bytesRead === 0) return;
      const buffer = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk;
      const end = carry.length ? buffer.length : bytesRead;
      let start = 0;
      for (let stop = buffer.indexOf(newline, start); stop !== -1 && stop < end; ) {
        const key = lineKey(buffer, start, stop);
        if (key) add(locations, key, { file, offset: carryOffset + start, length: stop - start });
        start = stop + 1;
        stop = buffer.indexOf(newline, start);
      }
      carry = Buffer.from(buffer.subarray(start, end));
      carryOffset += start;
    }
  } finally {
    await handle.close();
  }
}

/** The key a line starts with (`{"key":"<hex>"`), or undefined for any other line. */
function lineKey(buffer: Buffer, start: number, stop: number): string | undefined {
  if (stop - start < keyPrefix.length + 9) return undefined;
  if (buffer.compare(keyPrefix, 0, keyPrefix.length, start, start + keyPrefix.length) !== 0)
    return undefined;
  const from = start + keyPrefix.length;
  const quote = buffer.indexOf(0x22, from);
  if (quote === -1 || quote > stop) return undefined;
  const key = buffer.toString("latin1", from, quote);
  return /^[0-9a-f]{8,}$/.test(key) ? key : undefined;
}
