import { cp, mkdir } from "node:fs/promises";
import { basename, join, resolve } from "node:path";

/**
 * Copy the PR's harness folder (as checked out) into `into`, outside the workspace, so the gate
 * runs the head harness where neither its working folder nor its project root holds the
 * held-out answers. `.git` folders and the `exclude` files (the config's task files, should
 * they sit inside the harness folder) are left out; symlinks are copied as links.
 */
export async function copyHeadHarness(options: {
  from: string;
  into: string;
  exclude: string[];
}): Promise<string> {
  const excluded = new Set(options.exclude.map((file) => resolve(file)));
  await mkdir(options.into, { recursive: true });
  await cp(options.from, options.into, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => basename(source) !== ".git" && !excluded.has(resolve(source)),
  });
  return options.into;
}

/** Where the gate's scratch copies live inside the run's scratch folder. */
export function gateScratch(scratchDir: string): { base: string; head: string } {
  return { base: join(scratchDir, "base"), head: join(scratchDir, "head") };
}
