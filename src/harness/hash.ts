import { createHash } from "node:crypto";

/**
 * Content hash of a harness: sha256 over its kind, the files sorted by path (path and content,
 * NUL-framed so no two layouts collide), and the command argv. Hex.
 */
export function harnessHash(parts: {
  kind: "builtin" | "command";
  files: Record<string, string>;
  command?: string[];
}): string {
  const hash = createHash("sha256");
  hash.update(`ecdysis-harness-v1\0${parts.kind}\0`);
  for (const path of Object.keys(parts.files).sort()) {
    const content = parts.files[path];
    hash.update(`${path}\0${Buffer.byteLength(content)}\0${content}\0`);
  }
  hash.update(`command\0${JSON.stringify(parts.command ?? null)}`);
  return hash.digest("hex");
}
