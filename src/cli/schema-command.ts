import { z } from "zod";
import { commandOutputJsonSchema } from "../agent/command-output.js";
import { jsonSchemas, writeJsonSchemas } from "../config/json-schema.js";
import { type CliCommand, resolvePath, validateFlags } from "./command.js";

/** `ecdysis schema`: writes the JSON Schemas of ecdysis.yml and harness.yaml for editors. */
export const schemaCommand: CliCommand = {
  name: "schema",
  summary: "write JSON Schemas of ecdysis.yml, harness.yaml and a command harness's stdout",
  help: `Usage: ecdysis schema --out DIR

Writes DIR/ecdysis.schema.json and DIR/harness.schema.json (generated from the zod schemas), for
editor completion, e.g. '# yaml-language-server: $schema=schemas/ecdysis.schema.json', and
DIR/command-output.schema.json: the JSON object a command harness prints on stdout.
`,
  options: { out: { type: "string" } },
  async run(args, io) {
    const flags = validateFlags(
      "schema",
      z.object({ out: z.string().min(1) }).strict(),
      args.values,
    );
    const schemas = {
      ...jsonSchemas(),
      "command-output.schema.json": commandOutputJsonSchema(),
    };
    for (const path of await writeJsonSchemas(resolvePath(io, flags.out), schemas))
      io.stdout.write(`wrote ${path}\n`);
    return 0;
  },
};
