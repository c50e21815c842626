import { access, copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { defaultAnswerPattern, recommendedFormatInstruction } from "../config/harness-schema.js";
import { isBundledWorld } from "../config/world-names.js";
import { InputError } from "../errors/input-error.js";
import { harnessName } from "../github/harness-identity.js";
import { findGitRoot } from "../harness/patch-root.js";
import { setYamlPath } from "../harness/yaml-set.js";
import { bundledWorlds, generateWorldFiles, loadWorld } from "../sim/index.js";
import { type CliCommand, resolvePath, resolveWorldFlag, validateFlags } from "./command.js";
import { cliInvocation, pathFrom, shellQuote } from "./shell-command.js";
import {
  ACTION_PLACEHOLDER,
  ACTION_REF_PATTERN,
  exampleWorkflow,
  initialConfig,
} from "./workflow-template.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** What `.gitignore` gets: the caches and run outputs under `.ecdysis/` (cacheDir and --out). */
const ignoreLines = ["# Ecdysis: rollout and call caches, run outputs", ".ecdysis/"];

/**
 * Adds the ignore lines to `.gitignore` (created when absent; an existing one keeps its lines
 * and gets only what it lacks). Returns what happened to the file.
 */
async function writeIgnoreLines(path: string): Promise<"created" | "updated" | "kept"> {
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === undefined) {
    await writeFile(path, `${ignoreLines.join("\n")}\n`);
    return "created";
  }
  const present = new Set(current.split(/\r?\n/).map((line) => line.trim()));
  if (present.has(".ecdysis/") || present.has(".ecdysis")) return "kept";
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  await writeFile(path, `${current}${separator}${ignoreLines.join("\n")}\n`);
  return "updated";
}

/**
 * Where a new project's files go. GitHub reads workflows only at the repository root: a project
 * in a subfolder gets its workflow there, with the config and harness paths written from the
 * root. A repository that has an Ecdysis workflow already (another harness) gets a second one,
 * `ecdysis-<harness name>.yml`, named after the harness as the Action names it. Refuses (and
 * writes nothing) when any file it would write exists: it never overwrites.
 */
async function projectLayout(dir: string): Promise<{
  workflowFile: string;
  fromBase: (path: string) => string;
  harnessName: string;
}> {
  const base = findGitRoot(dir) ?? dir;
  const fromBase = (path: string) => relative(base, join(dir, path)).split(sep).join("/");
  const workflows = join(base, ".github", "workflows");
  const first = join(workflows, "ecdysis.yml");
  const name = harnessName(fromBase("harness")) || "harness";
  const layout = (await exists(first))
    ? {
        workflowFile: join(workflows, `ecdysis-${name.replace(/\//g, "-")}.yml`),
        harnessName: name,
      }
    : { workflowFile: first, harnessName: "" };
  const targets = [...["ecdysis.yml", "harness", "tasks"].map((entry) => join(dir, entry))];
  targets.push(layout.workflowFile);
  const taken = [];
  for (const target of targets) if (await exists(target)) taken.push(relative(dir, target));
  if (taken.length > 0) {
    throw new InputError(
      resolve(dir, taken[0]),
      `already exists; 'ecdysis init' never overwrites (existing: ${taken.join(", ")})`,
    );
  }
  return { ...layout, fromBase };
}

/** `ecdysis init`: scaffolds a project (config, seed harness, tasks from a sim world, workflow). */
export const initCommand: CliCommand = {
  name: "init",
  summary: "scaffold ecdysis.yml, a harness, tasks from a sim world and a workflow",
  help: `Usage: ecdysis init [DIR] [--world NAME_OR_FILE] [--action OWNER/REPO@SHA] [--runners N]

Writes into DIR (default: the current folder): ecdysis.yml (simulated model), harness/ (the
world's weak seed harness), tasks/train.jsonl and tasks/heldout.jsonl, and
.github/workflows/ecdysis.yml (weekly evolve, gate on PRs; at the root of the git repository
holding DIR, where GitHub reads it, with paths from there; ecdysis-<harness>.yml when the
repository has an Ecdysis workflow for another harness already), and adds .ecdysis/ (caches
and run outputs) to DIR/.gitignore. Refuses to overwrite any of the others. Prints the next
commands.

  --world    a bundled sim world (${bundledWorlds().join(", ")}) or a world file (default quickstart)
  --action   the Ecdysis Action the workflow uses, e.g. my-org/ecdysis@<full commit sha>;
             without it the workflow holds the placeholder ${ACTION_PLACEHOLDER}, marked EDIT ME
  --runners  spread the workflow's evolve over N runners (default 1): a search job, a matrix of
             N measure jobs and a finish job, the rollout cache moved as artifacts
             (docs/scale-out.md: when one runner is enough)
Then: ecdysis eval --config ecdysis.yml --out .ecdysis/eval
      ecdysis evolve --config ecdysis.yml --out .ecdysis/evolve
`,
  options: { world: { type: "string" }, action: { type: "string" }, runners: { type: "string" } },
  allowPositionals: true,
  async run(args, io) {
    const flags = validateFlags(
      "init",
      z
        .object({
          world: z.string().min(1).default("quickstart"),
          action: z
            .string()
            .regex(ACTION_REF_PATTERN, "expected OWNER/REPO@REF, e.g. my-org/ecdysis@<commit sha>")
            .optional(),
          runners: z.coerce.number().int().min(1).max(256).default(1),
        })
        .strict(),
      args.values,
    );
    if (args.positionals.length > 1)
      throw new InputError("ecdysis init", "give at most one folder");
    const dir = resolvePath(io, args.positionals[0] ?? ".");
    const layout = await projectLayout(dir);
    const { workflowFile, fromBase } = layout;
    const targets = [
      ...["ecdysis.yml", "harness", "tasks"].map((name) => join(dir, name)),
      workflowFile,
    ];
    const source = resolveWorldFlag(io, "init", flags.world);
    await writeProject({
      dir,
      source,
      world: source === flags.world && isBundledWorld(source) ? flags.world : undefined,
      workflow: exampleWorkflow(fromBase("ecdysis.yml"), {
        action: flags.action,
        harnessDir: fromBase("harness"),
        name: layout.harnessName,
        runners: flags.runners,
        cacheDir: fromBase(".ecdysis/cache"),
      }),
      workflowFile,
    });
    const ignore = await writeIgnoreLines(join(dir, ".gitignore"));
    for (const target of targets) io.stdout.write(`created ${target}\n`);
    if (ignore !== "kept") io.stdout.write(`${ignore} ${join(dir, ".gitignore")}\n`);
    if (flags.action === undefined) {
      io.stdout.write(
        `edit ${workflowFile}: replace ${ACTION_PLACEHOLDER} with your fork or release of the Ecdysis Action, pinned to a full commit SHA\n`,
      );
    }
    const cli = cliInvocation(io.env);
    const arg = (...parts: string[]) => shellQuote(pathFrom(io.cwd, join(dir, ...parts)));
    io.stdout.write(
      [
        "next:",
        `  ${cli} eval --config ${arg("ecdysis.yml")} --out ${arg(".ecdysis", "eval")}`,
        `  ${cli} evolve --config ${arg("ecdysis.yml")} --out ${arg(".ecdysis", "evolve")}`,
        "",
      ].join("\n"),
    );
    return 0;
  },
};

/**
 * Write the project: tasks and the seed harness generated from the world aside (only what a
 * user project needs, never the ground truth), the config, the workflow.
 */
async function writeProject(options: {
  dir: string;
  /** The world file or bundled name given. */
  source: string;
  /** The bundled world's name, when it is one. */
  world?: string;
  workflow: string;
  workflowFile: string;
}): Promise<void> {
  const { dir, source } = options;
  const world = await loadWorld(source);
  const staging = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
  try {
    const files = await generateWorldFiles({ world, outDir: staging });
    await mkdir(join(dir, "tasks"), { recursive: true });
    await copyFile(files.train, join(dir, "tasks", "train.jsonl"));
    await copyFile(files.heldout, join(dir, "tasks", "heldout.jsonl"));
    await cp(files.harnessDir, join(dir, "harness"), { recursive: true });
    await tellAnswerFormat(join(dir, "harness", "harness.yaml"));
    await writeFile(
      join(dir, "ecdysis.yml"),
      initialConfig(options.world ?? (relative(dir, source) || source)),
    );
    await mkdir(dirname(options.workflowFile), { recursive: true });
    await writeFile(options.workflowFile, options.workflow);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * A new project's seed harness states the answer format and reads the answer lines models
 * write (the sim world's seed leaves both weak on purpose; a user's first run should not).
 */
async function tellAnswerFormat(file: string): Promise<void> {
  let text = await readFile(file, "utf8");
  for (const [path, value] of [
    ["completion.format_instruction", recommendedFormatInstruction],
    ["completion.answer_pattern", defaultAnswerPattern],
  ]) {
    const result = setYamlPath({ text, path, value });
    if (!result.ok) throw new Error(`init: cannot set ${path}: ${result.reason}`);
    text = result.text;
  }
  await writeFile(file, text);
}
