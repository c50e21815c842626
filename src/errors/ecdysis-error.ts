/** Base of every error Ecdysis raises on purpose. `code` is stable; callers branch on it. */
export abstract class EcdysisError extends Error {
  abstract readonly code: string;
  /** Exit code the CLI/Action uses for it. */
  readonly exitCode: number = 1;
}
