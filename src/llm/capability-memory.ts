import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import type { Downgrade } from "./capabilities.js";

const downgradeSchema = z.object({
  endpoint: z.string(),
  model: z.string(),
  /** The refused body field: a capability's (`tools`, `seed`, …) or another one left out since. */
  parameter: z.string().min(1),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
  remembered: z.boolean().default(false),
});
const memoryFileSchema = z.object({ version: z.literal(1), downgrades: z.array(downgradeSchema) });

/**
 * What earlier runs learned about endpoints: the capability steps servers forced
 * (`<cacheDir>/endpoints.json`), so the next run starts with the settings that work instead of
 * paying for the same 400 again. An unreadable file is ignored (and replaced on the next step).
 */
export class CapabilityMemory {
  /** Writes run one after another, each with the whole list at its turn, so none is lost. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string | undefined,
    private readonly known: Downgrade[],
  ) {}

  /** Reads the memory at `path` (none yet, or unreadable: empty). */
  static async open(path: string): Promise<CapabilityMemory> {
    let downgrades: Downgrade[] = [];
    try {
      const parsed = memoryFileSchema.safeParse(JSON.parse(await readFile(path, "utf8")));
      if (parsed.success) downgrades = parsed.data.downgrades;
    } catch {
      // missing or corrupt: start empty
    }
    return new CapabilityMemory(path, downgrades);
  }

  /** A memory that keeps nothing beyond this process (tests, `callCache: false`). */
  static inMemory(): CapabilityMemory {
    return new CapabilityMemory(undefined, []);
  }

  /** Steps recorded for one endpoint and model, in the order they were learned. */
  downgradesOf(endpoint: string, model: string): Downgrade[] {
    return this.known.filter((entry) => entry.endpoint === endpoint && entry.model === model);
  }

  /** Records a new step and rewrites the file atomically. */
  async record(downgrade: Downgrade): Promise<void> {
    const duplicate = this.known.some(
      (entry) =>
        entry.endpoint === downgrade.endpoint &&
        entry.model === downgrade.model &&
        entry.parameter === downgrade.parameter &&
        entry.from === downgrade.from,
    );
    if (duplicate) return;
    this.known.push({ ...downgrade, remembered: false });
    const path = this.path;
    if (!path) return;
    // Best effort, like any cache: a memory that cannot be written only costs a 400 next run.
    this.writing = this.writing
      .then(async () => {
        await mkdir(dirname(path), { recursive: true });
        const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
        const body = { version: 1, downgrades: this.known };
        await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`, "utf8");
        await rename(temp, path);
      })
      .catch(() => undefined);
    await this.writing;
  }
}
