import { join } from "node:path";
import { z } from "zod";
import { loadConfig } from "../config/load-config.js";
// Integration point: runGate from src/evolve (docs/stage-interfaces.md).
import { runGate } from "../evolve/index.js";
import { sandboxWarningLine, writeGateReport } from "../report/index.js";
import { serveSimModel } from "../sim/index.js";
import { type CliCommand, resolvePath, validateFlags } from "./command.js";

const gateFlagsSchema = z
  .object({
    config: z.string().min(1),
    base: z.string().min(1),
    head: z.string().min(1),
    out: z.string().min(1),
  })
  .strict();

/** `ecdysis gate`: held-out accuracy of a base versus a head harness; exit 1 when the head fails the gate. */
export const gateCommand: CliCommand = {
  name: "gate",
  summary: "compare a base and a head harness on the held-out tasks",
  help: `Usage: ecdysis gate --config FILE --base DIR --head DIR --out DIR

Evaluates both harness folders on the held-out split of the config (take the config from the
BASE branch), writes DIR/gate.json and DIR/gate.md, and exits 1 when the head is less accurate
than the base by more than 'gate.tolerance'.
`,
  options: {
    config: { type: "string" },
    base: { type: "string" },
    head: { type: "string" },
    out: { type: "string" },
  },
  async run(args, io) {
    const flags = validateFlags("gate", gateFlagsSchema, args.values);
    const loaded = await loadConfig(resolvePath(io, flags.config));
    const outDir = resolvePath(io, flags.out);
    const result = await runGate({
      base: { harnessDir: resolvePath(io, flags.base) },
      head: { harnessDir: resolvePath(io, flags.head) },
      loaded,
      simServer: serveSimModel,
      outDir,
      env: io.env,
    });
    await writeGateReport({ outDir, result });
    const passed = result.verdict === "pass";
    io.stderr.write(sandboxWarningLine(result.sandbox));
    io.stdout.write(
      `gate ${passed ? "passed" : "failed"} (${result.reason}); wrote ${join(outDir, "gate.json")} and ${join(outDir, "gate.md")}\n`,
    );
    return passed ? 0 : 1;
  },
};
