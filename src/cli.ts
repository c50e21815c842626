/**
 * The `ecdysis` command: a thin shell over src/cli/main.ts. Wires process streams, the
 * environment and an abort signal fired by SIGINT/SIGTERM (a second signal exits at once). An
 * interrupted run exits 130 (SIGINT) or 143 (SIGTERM), keeping what it finished.
 */
import { setFlagsFromString } from "node:v8";
import { main } from "./cli/main.js";
import { InterruptedError, type StopSignal } from "./errors/interrupted-error.js";

// A busy V8 heap grows to several times what is live before it collects. Growing it by at most
// 30% a collection keeps the peak nearer the live set, for more frequent collections (with it,
// a 20,000-task eval peaked at 245 MB: docs/scale-out.md; not measured without it here).
setFlagsFromString("--heap-growing-percent=30");

const controller = new AbortController();
const onSignal = (signal: StopSignal) => {
  const stop = new InterruptedError(signal);
  if (controller.signal.aborted) process.exit(stop.exitCode);
  controller.abort(stop);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
  self: [process.execPath, ...process.execArgv, process.argv[1]],
});
process.off("SIGINT", onSignal);
process.off("SIGTERM", onSignal);
// Work a command left running after an interrupt (servers, timers) must not keep us alive.
if (controller.signal.aborted) process.exit(process.exitCode);
