import { z } from "zod";
import { writeJsonSchemas } from "../config/json-schema.js";
import { type CliCommand, resolvePath, validateFlags } from "./command.js";

/** `ecdysis schema`: writes the JSON Schemas of ecdysis.yml and harness.yaml for editors. */
export const schemaCommand: CliCommand = {
  name: "schema",
  summary: "write JSON Schemas of ecdysis.yml and harness.yaml",
  help: `Usage: ecdysis schema --out DIR

Writes DIR/ecdysis.schema.json and DIR/harness.schema.json (generated from the zod schemas), for
editor completion, e.g. '# yaml-language-server: $schema=schemas/ecdysis.schema.json'.
`,
  options: { out: { type: "string" } },
  async run(args, io) {
    const flags = validateFlags(
      "schema",
      z.object({ out: z.string().min(1) }).strict(),
      args.values,
    );
    for (const path of await writeJsonSchemas(resolvePath(io, flags.out)))
      io.stdout.write(`wrote ${path}\n`);
    return 0;
  },
};
