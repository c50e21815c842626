import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { readEvolveResult } from "./result-schema.js";

async function file(content: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "ecdysis-result-"));
  const target = path.join(dir, "result.json");
  await writeFile(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
}

describe("readEvolveResult", () => {
  it("refuses a result.json of another schema version, naming the file and the field", async () => {
    const target = await file({ version: 1, strategy: "ecdysis", iterations: [] });
    const error = await readEvolveResult(target).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe(target);
    expect((error as InputError).location).toMatchObject({ field: "schemaVersion" });
    expect((error as InputError).message).toMatch(/reads version 2/);
  });

  it("names the first field that does not match, and a file that is not JSON", async () => {
    const broken = await file({ schemaVersion: 2, strategy: "hill-climbing" });
    await expect(readEvolveResult(broken)).rejects.toMatchObject({
      location: { field: "strategy" },
    });
    await expect(readEvolveResult(await file("{ not json"))).rejects.toBeInstanceOf(InputError);
  });
});
