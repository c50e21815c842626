#!/usr/bin/env node
// Bundles the Action (src/github/index.ts → dist/index.js) and the CLI (src/cli.ts → dist/cli.js)
// with esbuild: ESM, platform node, target node20 (runs under the runner's node24 and here).
// `--check` rebuilds into a temporary folder and fails, listing the files, when dist/ is stale.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entries = { index: "src/github/index.ts", cli: "src/cli.ts" };
// CommonJS dependencies inside an ESM bundle call require(); give them a real one.
const banner = [
  'import { createRequire as __ecdysisCreateRequire } from "node:module";',
  "const require = __ecdysisCreateRequire(import.meta.url);",
].join("\n");

async function bundle(outDir) {
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, file]) => [name, join(root, file)]),
    ),
    outdir: outDir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    splitting: false,
    banner: { js: banner },
    legalComments: "none",
    logLevel: "warning",
    absWorkingDir: root,
  });
}

async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Files that differ between two folders (missing on either side counts). */
async function differences(expected, actual) {
  const names = new Set([...(await listFiles(expected)), ...(await listFiles(actual))]);
  const differing = [];
  for (const name of [...names].sort()) {
    const [a, b] = await Promise.all([
      readFile(join(expected, name)).catch(() => null),
      readFile(join(actual, name)).catch(() => null),
    ]);
    if (!a || !b || !a.equals(b)) differing.push(name);
  }
  return differing;
}

const check = process.argv.includes("--check");
const distDir = process.env.ECDYSIS_DIST_DIR
  ? resolve(process.env.ECDYSIS_DIST_DIR)
  : join(root, "dist");
if (check) {
  const fresh = await mkdtemp(join(tmpdir(), "ecdysis-dist-"));
  try {
    await bundle(fresh);
    const differing = await differences(fresh, distDir);
    if (differing.length > 0) {
      console.error(
        `dist/ is stale: ${differing.join(", ")} differ from a fresh build. Run 'npm run build' and commit dist/.`,
      );
      process.exitCode = 1;
    } else {
      console.log("dist/ matches a fresh build");
    }
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
} else {
  await bundle(distDir);
  console.log(
    `built ${Object.keys(entries)
      .map((name) => `${relative(root, distDir)}/${name}.js`)
      .join(", ")}`,
  );
}
