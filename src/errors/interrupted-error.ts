import { EcdysisError } from "./ecdysis-error.js";

/** The signals a run honours (Ctrl-C; a cancelled or timed-out CI job). */
export type StopSignal = "SIGINT" | "SIGTERM";

/**
 * The run was stopped by SIGINT or SIGTERM. What finished is kept (rollout cache, journal), so
 * the same command resumes it. Exits 128 + the signal's number, as a shell reports a process the
 * signal ended: 130 for SIGINT, 143 for SIGTERM.
 */
export class InterruptedError extends EcdysisError {
  readonly code = "interrupted";
  override readonly exitCode: number;
  constructor(
    readonly signal: StopSignal,
    /** How to resume, said after the stop (the CLI: re-run the command; the Action: re-run the job). */
    resume = "re-run the same command to resume",
  ) {
    super(
      `interrupted by ${signal}; finished rollouts and stages are kept and will not be run again: ${resume}`,
    );
    this.name = "InterruptedError";
    this.exitCode = signal === "SIGINT" ? 130 : 143;
  }
}

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts: for work that
 * does not stop on its own but whose finished parts are kept (journaled stages, cached rollouts),
 * so stopping at once loses nothing a re-run would redo.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
