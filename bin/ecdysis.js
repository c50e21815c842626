#!/usr/bin/env node
// Runs the bundled CLI when present (installed package), else the TypeScript source through tsx (checkout).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundled = join(root, "dist", "cli.js");
if (existsSync(bundled)) {
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(root, "src", "cli.ts")).href);
}
