import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { DefaultArtifactClient } from "@actions/artifact";

/** Where uploads go; the default is the runner's artifact service. */
export interface ArtifactUploader {
  upload(options: { name: string; files: string[]; root: string }): Promise<void>;
}

/** True when the runner's artifact service is reachable (its env vars are set). */
function artifactServiceAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.ACTIONS_RUNTIME_TOKEN && env.ACTIONS_RESULTS_URL);
}

/** The `@actions/artifact` uploader. */
const actionsArtifactUploader: ArtifactUploader = {
  async upload({ name, files, root }) {
    await new DefaultArtifactClient().uploadArtifact(name, files, root, { retentionDays: 30 });
  },
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Copy a run folder into a staging folder with every secret form scrubbed from text files,
 * skipping `.git` folders and symlinks. Returns the staged root and its files.
 */
export async function stageScrubbed(options: {
  dir: string;
  scrub: (text: string) => string;
}): Promise<{ root: string; files: string[] }> {
  const root = await mkdtemp(join(tmpdir(), "ecdysis-artifact-"));
  const files: string[] = [];
  for (const entry of await readdir(options.dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const rel = relative(options.dir, source);
    if (rel.split(sep).includes(".git")) continue;
    const bytes = await readFile(source);
    let content: Buffer | string = bytes;
    try {
      content = options.scrub(utf8.decode(bytes));
    } catch {
      // Binary files carry no text secrets we could scrub reliably; they are still uploaded.
    }
    const target = join(root, rel);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    files.push(target);
  }
  return { root, files };
}

/**
 * Upload the report and traces of a run as a workflow artifact. Without the artifact service
 * (a local run, `@github/local-action`) it warns and returns false instead of failing the run.
 */
export async function uploadRunArtifact(options: {
  name: string;
  dir: string;
  scrub: (text: string) => string;
  warn: (message: string) => void;
  uploader?: ArtifactUploader;
  env?: NodeJS.ProcessEnv;
}): Promise<boolean> {
  if (!options.uploader && !artifactServiceAvailable(options.env)) {
    options.warn(
      "artifact service not available (ACTIONS_RUNTIME_TOKEN/ACTIONS_RESULTS_URL unset): report not uploaded",
    );
    return false;
  }
  let staged: Awaited<ReturnType<typeof stageScrubbed>>;
  try {
    staged = await stageScrubbed({ dir: options.dir, scrub: options.scrub });
  } catch (error) {
    options.warn(`artifact not staged: ${(error as Error).message}`);
    return false;
  }
  const uploader = options.uploader ?? actionsArtifactUploader;
  const upload = (name: string) =>
    uploader.upload({ name, files: staged.files, root: staged.root });
  try {
    if (staged.files.length === 0) return false;
    try {
      await upload(options.name);
    } catch (error) {
      // Another step of this workflow run took the name (same harness in a matrix): keep both.
      if (!/\(409\)|conflict|already exists/i.test((error as Error).message)) throw error;
      const name = `${options.name}-${process.env.GITHUB_JOB ?? "job"}-${process.pid}`;
      options.warn(
        `artifact name ${options.name} is taken in this workflow run; uploading as ${name}`,
      );
      await upload(name);
    }
    return true;
  } catch (error) {
    options.warn(`artifact upload failed: ${(error as Error).message}`);
    return false;
  } finally {
    await rm(staged.root, { recursive: true, force: true });
  }
}
