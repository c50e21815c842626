import { z } from "zod";

/** What a piece of agent code can reach beyond its task: the four kinds a reviewer checks. */
export const reachKindSchema = z.enum(["environment", "files", "network", "processes"]);
export type ReachKind = z.infer<typeof reachKindSchema>;

/** A file whose new version reaches for more of one kind than the old one did, with the words that do. */
export const reachFlagSchema = z.object({
  file: z.string(),
  kind: reachKindSchema,
  words: z.array(z.string()).min(1),
});
export type ReachFlag = z.infer<typeof reachFlagSchema>;

/**
 * The words that show code reaching out, by kind, across the languages agents are written in
 * (Python, JavaScript/TypeScript, shell). A word counts where no identifier character precedes
 * it. Flagged for the reviewer, never refused: an honest edit may need any of them, and the
 * sandbox, not this list, is what stops a hostile one.
 */
const reachWords: Record<ReachKind, string[]> = {
  environment: [
    "os.environ",
    "getenv(",
    "process.env",
    "environ",
    "ENV[",
    "printenv",
    "/proc/self",
    "/proc/$",
  ],
  files: [
    "open(",
    "readFile",
    "writeFile",
    "appendFile",
    "readdir",
    "fs.",
    "node:fs",
    "pathlib",
    "shutil",
    "os.walk",
    "os.listdir",
    "os.scandir",
    "glob",
    "/proc/",
    "../",
    "GITHUB_ENV",
    "GITHUB_OUTPUT",
    "GITHUB_PATH",
    ".git/",
    ".git-credentials",
    "expanduser",
    "homedir",
  ],
  network: [
    "socket",
    "urllib",
    "requests.",
    "http.client",
    "httpx",
    "aiohttp",
    "fetch(",
    "node:net",
    "node:http",
    "node:dgram",
    "XMLHttpRequest",
    "WebSocket",
    "curl",
    "wget",
    "127.0.0.1",
    "localhost",
  ],
  processes: [
    "subprocess",
    "os.system",
    "os.popen",
    "os.fork",
    "os.exec",
    "os.spawn",
    "Popen",
    "child_process",
    "spawn(",
    "exec(",
    "execSync",
    "execFile",
    "fork(",
    "setsid",
    "nohup",
    "eval(",
    "os.kill",
    "process.kill",
  ],
};

/** Files that hold data, not code: prompts, settings, tool descriptions. */
const dataFile = /\.(md|markdown|txt|json|jsonl|ya?ml|toml|csv|tsv|html?)$/i;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const patterns = new Map(
  Object.values(reachWords)
    .flat()
    .map((word) => [word, new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}`, "g")]),
);

function count(text: string, word: string): number {
  return text.match(patterns.get(word) as RegExp)?.length ?? 0;
}

/**
 * What the code files of `after` newly reach for, compared with `before` (a harness's files by
 * path): for each code file and kind, the reach words it holds more often than the same file
 * did before (a new file: than nothing). Data files (Markdown, JSON, YAML…) are not code.
 */
export function codeReaches(
  before: Record<string, string>,
  after: Record<string, string>,
): ReachFlag[] {
  const flags: ReachFlag[] = [];
  for (const [file, text] of Object.entries(after).sort(([a], [b]) => a.localeCompare(b))) {
    if (dataFile.test(file) || before[file] === text) continue;
    const old = before[file] ?? "";
    for (const [kind, words] of Object.entries(reachWords) as [ReachKind, string[]][]) {
      const found = words.filter((word) => count(text, word) > count(old, word));
      if (found.length > 0) flags.push({ file, kind, words: found });
    }
  }
  return flags;
}
