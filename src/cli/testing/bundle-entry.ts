import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { buildSync } from "esbuild";

const bundles = new Map<string, string>();

/**
 * Test helper: `entry` (a TypeScript file of this checkout) bundled once per test process as
 * scripts/build.mjs bundles the Action and the CLI, so tests that start it as a child process
 * pay one esbuild run instead of tsx compiling the source tree in every child (about 5 s of CPU
 * each). The bundle sits inside the checkout (node_modules/.cache), so the modules that find
 * `worlds/` and package.json by walking up from themselves find this checkout's.
 */
export function bundledEntry(repoRoot: string, entry: string): string {
  const known = bundles.get(entry);
  if (known) return known;
  const parent = join(repoRoot, "node_modules", ".cache", "ecdysis-test-bundles");
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "run-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, basename(entry).replace(/\.ts$/, ".mjs"));
  buildSync({
    entryPoints: [join(repoRoot, entry)],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    banner: {
      js: 'import { createRequire as __testRequire } from "node:module";\nconst require = __testRequire(import.meta.url);',
    },
    logLevel: "warning",
    absWorkingDir: repoRoot,
  });
  bundles.set(entry, outfile);
  return outfile;
}
