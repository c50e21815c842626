// The Action's entry (bundled to dist/index.js): run() with the real engine and services.
// SIGINT/SIGTERM (a cancelled job, or one at its time limit: the runner sends SIGINT, then
// SIGTERM 7.5 s later) leave the engine at once; the rollout cache is saved and the step exits
// 130/143, so a re-run of the job pays for no finished rollout. A second signal exits at once.
import { InterruptedError, type StopSignal } from "../errors/interrupted-error.js";
import { run } from "./main.js";

const controller = new AbortController();
const onSignal = (signal: StopSignal) => {
  const stop = new InterruptedError(
    signal,
    "the rollout cache was saved (and the run folder kept): re-run the job to resume",
  );
  if (controller.signal.aborted) process.exit(stop.exitCode);
  controller.abort(stop);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

await run({ signal: controller.signal });
// Work the engine left running (rollouts, servers) must not keep the step alive.
if (controller.signal.aborted)
  process.exit((controller.signal.reason as InterruptedError).exitCode);
