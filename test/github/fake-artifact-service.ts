import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ArtifactUploader } from "../../src/github/artifact.js";

/**
 * The runner's artifact service as the Action sees it, kept in a folder shared by every step of
 * one test "workflow run": one file per artifact name, and — like the real service — a
 * duplicate name within the run is refused with a 409, the error `@actions/artifact` throws.
 */
export function fakeArtifactService(dir: string): ArtifactUploader {
  return {
    async upload({ name, files }) {
      mkdirSync(dir, { recursive: true });
      const record = join(dir, `${name}.json`);
      if (existsSync(record)) throw new Error("Failed request: (409) Conflict");
      writeFileSync(record, JSON.stringify({ name, files: files.length }));
    },
  };
}
