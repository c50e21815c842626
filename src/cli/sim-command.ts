import { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { generateWorldFiles, loadWorld, quirkSchema, startSimServer } from "../sim/index.js";
import {
  type CliCommand,
  type CliIo,
  type ParsedArgs,
  resolvePath,
  resolveWorldFlag,
  validateFlags,
} from "./command.js";

const serveSchema = z
  .object({
    world: z.string().min(1).default("quickstart"),
    port: z.coerce.number().int().min(0).max(65535).default(0),
    host: z.string().default("127.0.0.1"),
    model: z.string().optional(),
    "latency-scale": z.coerce.number().min(0).optional(),
    quirks: z
      .string()
      .transform((list) =>
        list
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      )
      .pipe(z.array(quirkSchema))
      .optional(),
  })
  .strict();

const worldSchema = z
  .object({
    world: z.string().min(1).default("quickstart"),
    seed: z.coerce.number().int().optional(),
    out: z.string().min(1),
  })
  .strict();

async function serve(args: ParsedArgs, io: CliIo): Promise<number> {
  const flags = validateFlags("sim serve", serveSchema, args.values);
  const world = await loadWorld(resolveWorldFlag(io, "sim", flags.world));
  const server = await startSimServer({
    world,
    model: flags.model,
    host: flags.host,
    port: flags.port,
    latencyScale: flags["latency-scale"],
    quirks: flags.quirks,
  });
  const behaviour = flags.quirks?.length ? ` with ${flags.quirks.join(", ")}` : "";
  io.stdout.write(
    `sim serving world '${flags.world}'${behaviour} at ${server.url} (Ctrl-C to stop)\n`,
  );
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.close();
  io.stdout.write(`sim stopped after ${server.requests()} requests\n`);
  return 0;
}

async function world(args: ParsedArgs, io: CliIo): Promise<number> {
  const flags = validateFlags("sim world", worldSchema, args.values);
  const loaded = await loadWorld(resolveWorldFlag(io, "sim", flags.world));
  const seeded = flags.seed === undefined ? loaded : { ...loaded, seed: flags.seed };
  const files = await generateWorldFiles({ world: seeded, outDir: resolvePath(io, flags.out) });
  io.stdout.write(`wrote ${files.train}\nwrote ${files.heldout}\nwrote ${files.harnessDir}/\n`);
  return 0;
}

/** `ecdysis sim serve|world`: the simulated model as a server, and a world's task files. */
export const simCommand: CliCommand = {
  name: "sim",
  summary: "run the simulated model, or generate a world's tasks and seed harness",
  help: `Usage: ecdysis sim serve [--world W] [--port P] [--host H] [--model NAME] [--latency-scale X] [--quirks Q,..]
       ecdysis sim world --world W [--seed N] --out DIR

serve   starts the OpenAI-compatible simulated model on loopback and prints its base URL
        (point any OpenAI client at it); stops on Ctrl-C. --quirks makes it answer like a
        server that cannot do everything: rejects-tools (Ollama's 400), rejects-json-schema
        (JSON mode only), reasoning-model (400 to max_tokens and temperature), fenced-json,
        prose-json, ignore-response-format, no-native-tools.
world   writes DIR/tasks/train.jsonl, DIR/tasks/heldout.jsonl and DIR/harness/ (the weak seed
        harness). The ground truth stays with \`ecdysis bench\`, which reads world files itself.

W is a bundled world name (e.g. quickstart) or a world file (YAML/JSON).
`,
  options: {
    world: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    model: { type: "string" },
    "latency-scale": { type: "string" },
    quirks: { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
  },
  allowPositionals: true,
  async run(args, io) {
    const [sub, ...rest] = args.positionals;
    if (rest.length > 0) throw new InputError("ecdysis sim", `unexpected argument '${rest[0]}'`);
    if (sub === "serve") return serve(args, io);
    if (sub === "world") return world(args, io);
    throw new InputError(
      "ecdysis sim",
      `expected 'serve' or 'world', got '${sub ?? ""}' (see 'ecdysis sim --help')`,
    );
  },
};
