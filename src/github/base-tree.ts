import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { InputError } from "../errors/input-error.js";
import type { Git } from "./git.js";

/** Make sure a commit is in the local repository, fetching just it when the checkout is shallow. */
export async function ensureCommit(git: Git, sha: string, remote = "origin"): Promise<void> {
  if (!/^[0-9a-f]{7,64}$/i.test(sha))
    throw new InputError("event payload", `'${sha}' is not a commit sha`, {
      field: "pull_request.base.sha",
    });
  const present = await git.exec(["cat-file", "-e", `${sha}^{commit}`]);
  if (present.code === 0) return;
  await git.run(["fetch", "--no-tags", "--depth=1", remote, sha]);
}

/**
 * Copy the files under `folder` as they are at commit `sha` into a fresh temporary folder, with
 * `git show <sha>:<path>` — the working tree (the PR's files) is never read. Returns the folder
 * standing for the repository root.
 */
export async function materialiseBaseTree(options: {
  git: Git;
  sha: string;
  folder: string;
}): Promise<string> {
  const { git, sha } = options;
  const folder = options.folder === "" ? "." : options.folder;
  const listing = await git.run([
    "ls-tree",
    "-r",
    "-z",
    "--name-only",
    "--full-tree",
    sha,
    "--",
    folder === "." ? "" : folder,
  ]);
  const files = listing.split("\0").filter((path) => path !== "");
  const root = await mkdtemp(join(tmpdir(), "ecdysis-base-"));
  for (const path of files) {
    const content = await git.run(["show", `${sha}:${path}`]);
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return root;
}
