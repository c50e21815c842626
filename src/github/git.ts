import { execFile } from "node:child_process";
import { TransportError } from "../errors/transport-error.js";

/** Result of one git invocation. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Committer identity of the bot; configurable, defaults to an `ecdysis[bot]` noreply address. */
export interface GitIdentity {
  name: string;
  email: string;
}

/** The identity used when the workflow sets none. */
export const defaultGitIdentity: GitIdentity = {
  name: "ecdysis[bot]",
  email: "ecdysis[bot]@users.noreply.github.com",
};

/**
 * The git CLI in one working folder. Arguments go as an argv array to `execFile` — never
 * through a shell — so text written by a model can only ever be an argument or a `-F` file.
 */
export class Git {
  readonly cwd: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly scrub: (text: string) => string;

  constructor(options: {
    cwd: string;
    env?: Record<string, string>;
    scrub?: (text: string) => string;
  }) {
    this.cwd = options.cwd;
    this.scrub = options.scrub ?? ((text) => text);
    this.env = {
      ...process.env,
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      LC_ALL: "C",
      ...options.env,
    };
  }

  /** A Git for another folder sharing this one's environment (e.g. a worktree). */
  at(cwd: string): Git {
    const git = Object.create(Git.prototype) as Git;
    Object.assign(git, this, { cwd });
    return git;
  }

  /** A Git with extra environment variables (e.g. `GIT_INDEX_FILE` for a scratch index). */
  withEnv(env: Record<string, string>): Git {
    const git = Object.create(Git.prototype) as Git;
    Object.assign(git, this, { env: { ...this.env, ...env } });
    return git;
  }

  /** Run git and return stdout as bytes (blobs are copied byte-exact, never decoded). */
  runBytes(args: string[]): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      execFile(
        "git",
        args,
        { cwd: this.cwd, env: this.env, maxBuffer: 256 * 1024 * 1024, encoding: "buffer" },
        (error, stdout, stderr) => {
          if (!error) {
            resolve(stdout);
            return;
          }
          const detail = this.scrub(stderr.toString("utf8").trim());
          reject(
            new TransportError("git", `git ${args[0]} failed: ${detail || error.message}`, {
              retryable: false,
              cause: error,
            }),
          );
        },
      );
    });
  }

  /** `text` with the secrets this Git was told about replaced (for git's own messages). */
  scrubText(text: string): string {
    return this.scrub(text);
  }

  /** Run git; resolves with the exit code instead of throwing (callers branch on it). */
  exec(args: string[]): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      execFile(
        "git",
        args,
        { cwd: this.cwd, env: this.env, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== "number") {
            reject(
              new TransportError("git", `cannot run git: ${error.message}`, {
                retryable: false,
                cause: error,
              }),
            );
            return;
          }
          resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
        },
      );
    });
  }

  /** Run git and return stdout; a non-zero exit is a TransportError carrying git's message. */
  async run(args: string[]): Promise<string> {
    const result = await this.exec(args);
    if (result.code !== 0) {
      const detail = this.scrub(result.stderr.trim() || result.stdout.trim());
      throw new TransportError("git", `git ${args[0]} failed (exit ${result.code}): ${detail}`, {
        retryable: false,
      });
    }
    return result.stdout;
  }
}

/**
 * Make a branch name git and GitHub accept: keeps `[A-Za-z0-9._/-]`, collapses the rest to `-`,
 * and removes what `git check-ref-format` refuses (`..`, `//`, leading `-` or `.`, `.lock`).
 */
export function sanitizeBranchName(name: string): string {
  const cleaned = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._/-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/\/{2,}/g, "/")
    .split("/")
    .map((part) =>
      part
        .replace(/^[.-]+/, "")
        .replace(/(\.lock)+$/i, "")
        .replace(/[.]+$/, ""),
    )
    .filter((part) => part !== "")
    .join("/")
    .replace(/-{2,}/g, "-")
    .slice(0, 200)
    .replace(/[/.-]+$/, "");
  return cleaned === "" ? "ecdysis/harness" : cleaned;
}

function slugOf(text: string): string {
  return text
    .replace(/\\/g, "/")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * Default branch of a harness: `ecdysis/<slug of the harness folder relative to the repo>`, and
 * `…-to-<base slug>` when the PR targets another branch than the repository's default, so the
 * PRs to two bases never share (and fight over) one branch.
 */
export function defaultBranchFor(harnessPath: string, otherBase?: string): string {
  const name = `ecdysis/${slugOf(harnessPath) || "harness"}`;
  return sanitizeBranchName(otherBase ? `${name}-to-${slugOf(otherBase) || "base"}` : name);
}
