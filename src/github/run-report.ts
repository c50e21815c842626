import { EcdysisError } from "../errors/ecdysis-error.js";
import { githubMessage, githubStatus } from "./github-client.js";

/** Text for a failed step: our errors already say what to fix; GitHub errors get their status. */
export function describeFailure(error: unknown): string {
  if (error instanceof EcdysisError) return error.message;
  const status = githubStatus(error);
  if (status !== undefined) return `GitHub API error ${status}: ${githubMessage(error)}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * What a run has established so far. Outputs are published the moment they are known (a later
 * error loses none of them); notes and problems end up in the job summary; any problem fails the
 * step once the run is over, after everything that could still be done was done.
 */
export class RunReport {
  readonly outputs: Record<string, string> = {};
  readonly notes: string[] = [];
  readonly problems: string[] = [];
  /** The engine's own summary, once it has produced one. */
  summaryMarkdown?: string;

  constructor(private readonly publish: (name: string, value: string) => void = () => {}) {}

  /** Set an output now (and again later if it changes). */
  set(name: string, value: string): void {
    this.outputs[name] = value;
    this.publish(name, value);
  }

  /** Set several outputs now. */
  setAll(values: Record<string, string>): void {
    for (const [name, value] of Object.entries(values)) this.set(name, value);
  }

  /** A fact for the job summary. */
  note(text: string): void {
    this.notes.push(text);
  }

  /** Something that failed: the step fails at the end, but the run goes on where it can. */
  problem(text: string): void {
    if (!this.problems.includes(text)) this.problems.push(text);
  }

  /**
   * Run a step that comes after the main result (labels, reviewers, statuses, comments): its
   * failure is recorded as a problem instead of throwing away what the run already did.
   */
  async attempt<T>(task: () => Promise<T>): Promise<T | undefined> {
    try {
      return await task();
    } catch (error) {
      this.problem(describeFailure(error));
      return undefined;
    }
  }
}

/** Accuracy as an output string (four decimals). */
export function formatAccuracy(value: number): string {
  return value.toFixed(4);
}
