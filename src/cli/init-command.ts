import { access, copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { z } from "zod";
import { defaultAnswerPattern, recommendedFormatInstruction } from "../config/harness-schema.js";
import { InputError } from "../errors/input-error.js";
import { setYamlPath } from "../harness/yaml-set.js";
import { bundledWorlds, generateWorldFiles, loadWorld } from "../sim/index.js";
import { type CliCommand, resolvePath, resolveWorldFlag, validateFlags } from "./command.js";
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

/** `ecdysis init`: scaffolds a project (config, seed harness, tasks from a sim world, workflow). */
export const initCommand: CliCommand = {
  name: "init",
  summary: "scaffold ecdysis.yml, a harness, tasks from a sim world and a workflow",
  help: `Usage: ecdysis init [DIR] [--world NAME_OR_FILE] [--action OWNER/REPO@SHA]

Writes into DIR (default: the current folder): ecdysis.yml (simulated model), harness/ (the
world's weak seed harness), tasks/train.jsonl and tasks/heldout.jsonl, and
.github/workflows/ecdysis.yml (weekly evolve, gate on PRs). Refuses to overwrite anything.

  --world    a bundled sim world (${bundledWorlds().join(", ")}) or a world file (default quickstart)
  --action   the Ecdysis Action the workflow uses, e.g. my-org/ecdysis@<full commit sha>;
             without it the workflow holds the placeholder ${ACTION_PLACEHOLDER}, marked EDIT ME
Then: ecdysis eval --config ecdysis.yml --out .ecdysis/eval
`,
  options: { world: { type: "string" }, action: { type: "string" } },
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
        })
        .strict(),
      args.values,
    );
    if (args.positionals.length > 1)
      throw new InputError("ecdysis init", "give at most one folder");
    const dir = resolvePath(io, args.positionals[0] ?? ".");
    const targets = ["ecdysis.yml", "harness", "tasks", ".github/workflows/ecdysis.yml"];
    const taken = [];
    for (const target of targets) if (await exists(join(dir, target))) taken.push(target);
    if (taken.length > 0) {
      throw new InputError(
        join(dir, taken[0]),
        `already exists; 'ecdysis init' never overwrites (existing: ${taken.join(", ")})`,
      );
    }
    const source = resolveWorldFlag(io, "init", flags.world);
    const bundled = source === flags.world && bundledWorlds().includes(source);
    const world = await loadWorld(source);
    const staging = await mkdtemp(join(tmpdir(), "ecdysis-init-"));
    try {
      // Generate aside, copy only what a user project needs (never the ground truth).
      const files = await generateWorldFiles({ world, outDir: staging });
      await mkdir(join(dir, "tasks"), { recursive: true });
      await copyFile(files.train, join(dir, "tasks", "train.jsonl"));
      await copyFile(files.heldout, join(dir, "tasks", "heldout.jsonl"));
      await cp(files.harnessDir, join(dir, "harness"), { recursive: true });
      await tellAnswerFormat(join(dir, "harness", "harness.yaml"));
      await writeFile(
        join(dir, "ecdysis.yml"),
        initialConfig(bundled ? flags.world : relative(dir, source) || source),
      );
      await mkdir(join(dir, ".github", "workflows"), { recursive: true });
      await writeFile(
        join(dir, ".github", "workflows", "ecdysis.yml"),
        exampleWorkflow("ecdysis.yml", flags.action),
      );
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    for (const target of targets) io.stdout.write(`created ${join(dir, target)}\n`);
    if (flags.action === undefined) {
      io.stdout.write(
        `edit ${join(dir, ".github/workflows/ecdysis.yml")}: replace ${ACTION_PLACEHOLDER} with your fork or release of the Ecdysis Action, pinned to a full commit SHA\n`,
      );
    }
    io.stdout.write(
      `next: ecdysis eval --config ${join(dir, "ecdysis.yml")} --out ${join(dir, ".ecdysis", "eval")}\n`,
    );
    return 0;
  },
};

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
