/** Receives progress of a batch: the runner calls start, then tick after each rollout, then end. */
export interface ProgressSink {
  start(label: string, total: number): void;
  tick(done: number, passed: number): void;
  end(): void;
}

/** A sink that shows nothing. */
export const silentProgress: ProgressSink = { start() {}, tick() {}, end() {} };

/** Where and how progress is shown. */
export interface ProgressOptions {
  stream: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env?: Record<string, string | undefined>;
  /** Plain mode: print a line every this many percent (default 10). */
  stepPercent?: number;
}

/**
 * A progress display on `stream` (stderr): a redrawn bar on a TTY, and plain lines every
 * `stepPercent` when not a TTY or when `CI=true` (logs stay readable in Actions).
 */
export function createProgress(options: ProgressOptions): ProgressSink {
  const env = options.env ?? {};
  const plain = !options.stream.isTTY || env.CI === "true" || env.TERM === "dumb";
  return plain ? plainProgress(options) : barProgress(options);
}

function percent(done: number, total: number): number {
  return total === 0 ? 100 : Math.floor((done / total) * 100);
}

function plainProgress(options: ProgressOptions): ProgressSink {
  const step = options.stepPercent ?? 10;
  let label = "";
  let total = 0;
  let lastBucket = -1;
  return {
    start(name, count) {
      label = name;
      total = count;
      lastBucket = 0;
      options.stream.write(`${label}: 0/${total} rollouts\n`);
    },
    tick(done, passed) {
      const bucket = Math.floor(percent(done, total) / step);
      if (bucket <= lastBucket) return;
      lastBucket = bucket;
      options.stream.write(
        `${label}: ${done}/${total} rollouts (${percent(done, total)}%), ${passed} passed\n`,
      );
    },
    end() {},
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
