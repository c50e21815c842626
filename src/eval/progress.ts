/** Receives progress of a batch: the runner calls start, then tick after each rollout, then end. */
export interface ProgressSink {
  start(label: string, total: number): void;
  tick(done: number, passed: number): void;
  end(): void;
  /** An independent sink on the same output, for a phase that runs beside this one. */
  fork?(): ProgressSink;
}

/** Where and how progress is shown. */
export interface ProgressOptions {
  stream: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env?: Record<string, string | undefined>;
  /** Plain mode: at most one interim line per this many milliseconds (default 10 000). */
  intervalMs?: number;
  /** Milliseconds clock for plain mode's interim lines and durations (default Date.now). */
  now?: () => number;
}

/**
 * A progress display on `stream` (stderr): a redrawn bar on a TTY; when not a TTY or when
 * `CI=true`, a few plain lines per batch — one at the start, at most one every `intervalMs`
 * while it runs, and one at the end with the accuracy — so CI logs stay short and readable.
 */
export function createProgress(options: ProgressOptions): ProgressSink {
  const env = options.env ?? {};
  const plain = !options.stream.isTTY || env.CI === "true" || env.TERM === "dumb";
  return plain ? plainProgress(options) : barProgress(options);
}

function percent(done: number, total: number): number {
  return total === 0 ? 100 : Math.floor((done / total) * 100);
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

function plainProgress(options: ProgressOptions): ProgressSink {
  const interval = options.intervalMs ?? 10_000;
  const now = options.now ?? Date.now;
  let label = "";
  let total = 0;
  let startedAt = 0;
  let lastLineAt = 0;
  let done = 0;
  let passed = 0;
  let open = false;
  return {
    fork: () => plainProgress(options),
    start(name, count) {
      label = name;
      total = count;
      done = 0;
      passed = 0;
      open = true;
      startedAt = now();
      lastLineAt = startedAt;
      options.stream.write(`${label}: ${total} rollouts…
`);
    },
    tick(doneNow, passedNow) {
      done = doneNow;
      passed = passedNow;
      const at = now();
      if (done >= total || at - lastLineAt < interval) return;
      lastLineAt = at;
      options.stream.write(
        `${label}: ${done}/${total} rollouts (${percent(done, total)}%), ${passed} passed, ${seconds(at - startedAt)}
`,
      );
    },
    end() {
      if (!open) return;
      open = false;
      const accuracy = done === 0 ? "–" : `${((passed / done) * 100).toFixed(1)}%`;
      const partial = done < total ? ` (${done}/${total} ran)` : "";
      options.stream.write(
        `${label}: ${passed}/${done} passed = ${accuracy}${partial} in ${seconds(now() - startedAt)}
`,
      );
    },
  };
}

function barProgress(options: ProgressOptions): ProgressSink {
  let label = "";
  let total = 0;
  let drawn = false;
  const draw = (done: number, passed: number) => {
    const width = Math.max(10, Math.min(40, (options.stream.columns ?? 80) - label.length - 40));
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    options.stream.write(
      `\r${label} ${bar} ${done}/${total} ${percent(done, total)}% · ${passed} passed\u001b[K`,
    );
    drawn = true;
  };
  return {
    // A phase running beside the bar reports in plain lines of its own.
    fork: () => plainProgress({ ...options, intervalMs: Number.POSITIVE_INFINITY }),
    start(name, count) {
      label = name;
      total = count;
      draw(0, 0);
    },
    tick: draw,
    end() {
      if (drawn) options.stream.write("\n");
      drawn = false;
    },
  };
}
