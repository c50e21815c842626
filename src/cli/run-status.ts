import type { ProgressSink } from "../eval/progress.js";
import type { ModelCallEvent } from "../evolve/meter.js";
import { plural } from "../report/wording.js";
import { CallTally, type RefinerActivity } from "./call-tally.js";
import type { TextStream } from "./command.js";
import {
  bar,
  compactCount,
  duration,
  eta,
  fitWidth,
  money,
  runningRoles,
} from "./status-format.js";

/** Options of the live status of a command run. */
export interface RunStatusOptions {
  stream: TextStream;
  env: Record<string, string | undefined>;
  /** The header's name, e.g. `ecdysis evolve`. */
  title: string;
  /** Milliseconds clock (default Date.now). */
  now?: () => number;
  /** Starts calling `redraw` periodically and returns a stop function (default: every 250 ms, unref'd). */
  ticker?: (redraw: () => void) => () => void;
  /** Plain mode: at most one interim line per phase per this many ms (default 10 000). */
  intervalMs?: number;
  /** The refiner counts as idle after this long without a running call (default 1 500 ms). */
  idleMs?: number;
  /** On abort the status closes at once: every open phase gets its "interrupted" line. */
  signal?: AbortSignal;
}

interface Phase {
  label: string;
  total: number;
  done: number;
  passed: number;
  startedAt: number;
  lastLineAt: number;
}

const spinner = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

function defaultTicker(redraw: () => void): () => void {
  const timer = setInterval(redraw, 250);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * One live status for a whole run: a line per running phase (each evaluation, concurrent ones
 * side by side) and one for the refiner roles' calls, under a header with the elapsed time,
 * calls, tokens and cost so far. On a TTY the block is redrawn in place and finished phases
 * leave one permanent line above it; otherwise (or with CI=true, TERM=dumb) it writes plain
 * lines: a start, at most one interim line per `intervalMs`, and an end per phase.
 */
export class RunStatus {
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly phases: Phase[] = [];
  private readonly calls = new CallTally();
  private readonly startedAt: number;
  private drawnLines = 0;
  private frame = 0;
  private closed = false;
  private readonly stopTicker: () => void;
  private readonly onAbort = () => this.close("interrupted");

  constructor(private readonly options: RunStatusOptions) {
    const env = options.env;
    this.tty = options.stream.isTTY === true && env.CI !== "true" && env.TERM !== "dumb";
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.stopTicker = (options.ticker ?? defaultTicker)(() => this.tick());
    options.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** A progress sink for one evaluation; its `fork` gives a concurrent phase its own line. */
  progress(): ProgressSink {
    let phase: Phase | undefined;
    return {
      start: (label, total) => {
        if (this.closed) return;
        const at = this.now();
        phase = { label, total, done: 0, passed: 0, startedAt: at, lastLineAt: at };
        this.phases.push(phase);
        if (this.tty) this.redraw();
        else this.write(`${label}: ${total} rollouts…\n`);
      },
      tick: (done, passed) => {
        if (!phase || this.closed) return;
        phase.done = done;
        phase.passed = passed;
        if (!this.tty) this.plainInterim(phase);
      },
      end: () => {
        if (!phase || this.closed) return;
        const ended = phase;
        phase = undefined;
        this.phases.splice(this.phases.indexOf(ended), 1);
        this.permanent([this.endLine(ended)]);
      },
      fork: () => this.progress(),
    };
  }

  /** Takes a model call event (agent or refiner). */
  onCall(event: ModelCallEvent): void {
    if (this.closed) return;
    const startedBusy = this.calls.add(event, this.now());
    if (!this.tty && startedBusy) this.write(`refiner: ${startedBusy}…\n`);
  }

  /** Writes a line that stays (a warning), above the live block on a TTY. */
  note(line: string): void {
    if (this.closed) this.write(`${line}\n`);
    else this.permanent([line]);
  }

  /** Ends the display: open phases and the refiner get a last line (`note`, e.g. interrupted). */
  close(note?: string): void {
    if (this.closed) return;
    const lines = this.phases.map((phase) =>
      note ? `${phase.label}: ${note} at ${phase.done}/${phase.total}` : this.endLine(phase),
    );
    const refiner = this.calls.refiner();
    if (refiner.running > 0 && note)
      lines.push(`refiner: ${note} with ${plural(refiner.running, "call")} running`);
    else if (refiner.since !== undefined && refiner.done > 0)
      lines.push(this.refinerSummary(refiner));
    this.phases.length = 0;
    this.closed = true;
    // On a TTY the redraw also clears the live block (drawn nothing once closed).
    if (this.tty) this.redraw(lines);
    else this.permanent(lines);
    this.stopTicker();
    this.options.signal?.removeEventListener("abort", this.onAbort);
  }

  /** Periodic work: idle detection, plain interim lines, and the redraw on a TTY. */
  private tick(): void {
    if (this.closed) return;
    const at = this.now();
    const idle = this.calls.idleSince(at, this.options.idleMs ?? 1500);
    if (idle) {
      // A period of cache replays only (notes written ahead, joined) cost nothing: no line.
      if (idle.done > 0) this.permanent([this.refinerSummary(idle)]);
      this.calls.resetActivity();
    }
    if (this.tty) {
      this.frame += 1;
      this.redraw();
      return;
    }
    for (const phase of this.phases) this.plainInterim(phase);
    const refiner = this.calls.refiner();
    if (
      refiner.running > 0 &&
      refiner.since !== undefined &&
      at - refiner.lastLineAt >= this.interval
    ) {
      this.calls.markLine(at);
      this.write(`${this.refinerLine(refiner, at)}\n`);
    }
  }

  private get interval(): number {
    return this.options.intervalMs ?? 10_000;
  }

  private plainInterim(phase: Phase): void {
    const at = this.now();
    if (phase.done >= phase.total || at - phase.lastLineAt < this.interval) return;
    phase.lastLineAt = at;
    const left = eta({ done: phase.done, total: phase.total, elapsedMs: at - phase.startedAt });
    const percent = phase.total === 0 ? 100 : Math.floor((phase.done / phase.total) * 100);
    this.write(
      `${phase.label}: ${phase.done}/${phase.total} rollouts (${percent}%), ${phase.passed} passed, ${duration(at - phase.startedAt)}${left === undefined ? "" : `, ETA ${duration(left)}`}\n`,
    );
  }

  private endLine(phase: Phase): string {
    const accuracy = phase.done === 0 ? "–" : `${((phase.passed / phase.done) * 100).toFixed(1)}%`;
    const partial = phase.done < phase.total ? ` (${phase.done}/${phase.total} ran)` : "";
    return `${phase.label}: ${phase.passed}/${phase.done} passed = ${accuracy}${partial} in ${duration(this.now() - phase.startedAt)}`;
  }

  private refinerLine(refiner: RefinerActivity, at: number): string {
    const roles = runningRoles(refiner.byPurpose);
    return `refiner: ${roles || "idle"} · ${refiner.done} done · ${compactCount(refiner.tokens)} tokens · ${money(refiner.costUsd)} · ${duration(at - (refiner.since ?? at))}`;
  }

  private refinerSummary(refiner: RefinerActivity): string {
    const purposes = [...refiner.finishedByPurpose]
      .map(([purpose, count]) => `${purpose} ${count}`)
      .join(", ");
    const spent = (refiner.lastActivityAt ?? this.now()) - (refiner.since ?? this.now());
    const replayed = refiner.replayed > 0 ? ` +${refiner.replayed} replayed` : "";
    return `refiner: ${plural(refiner.done, "call")}${purposes ? ` (${purposes})` : ""}${replayed} · ${compactCount(refiner.tokens)} tokens · ${money(refiner.costUsd)} in ${duration(spent)}`;
  }

  private header(at: number): string {
    const totals = this.calls.totals();
    const replayed = totals.replayed > 0 ? ` (+${totals.replayed} replayed)` : "";
    const spin = spinner[this.frame % spinner.length];
    const head = `${spin} ${this.options.title} · ${duration(at - this.startedAt)}`;
    // Without call events (eval reports rollouts only) there is nothing to count.
    if (totals.calls === 0 && totals.replayed === 0) return head;
    return `${head} · ${totals.calls} calls${replayed} · ${compactCount(totals.tokens)} tokens · ${money(totals.costUsd)} (agent ${money(totals.agentCostUsd)}, refiner ${money(totals.refinerCostUsd)})`;
  }

  private liveLines(): string[] {
    const at = this.now();
    const columns = this.options.stream.columns ?? 80;
    const lines = [this.header(at)];
    for (const phase of this.phases) {
      const elapsed = at - phase.startedAt;
      const left = eta({ done: phase.done, total: phase.total, elapsedMs: elapsed });
      const width = Math.max(10, Math.min(30, columns - phase.label.length - 50));
      lines.push(
        `  ${phase.label} ${bar(phase.done, phase.total, width)} ${phase.done}/${phase.total} · ${phase.passed} passed · ${duration(elapsed)}${left === undefined ? "" : ` · ETA ${duration(left)}`}`,
      );
    }
    const refiner = this.calls.refiner();
    if (refiner.since !== undefined) lines.push(`  ${this.refinerLine(refiner, at)}`);
    return lines.map((line) => fitWidth(line, columns));
  }

  /** Writes lines that stay (above the live block on a TTY). */
  private permanent(lines: string[]): void {
    if (lines.length === 0) return;
    if (!this.tty) {
      this.write(lines.map((line) => `${line}\n`).join(""));
      return;
    }
    this.redraw(lines);
  }

  /** Clears the live block, writes `above`, and draws the block again (nothing once closed). */
  private redraw(above: string[] = []): void {
    const up = this.drawnLines > 0 ? `\u001b[${this.drawnLines}A` : "";
    const live = this.closed ? [] : this.liveLines();
    const text = [...above, ...live].map((line) => `${line}\u001b[K\n`).join("");
    this.write(`\r${up}\u001b[J${text}`);
    this.drawnLines = live.length;
  }

  private write(text: string): void {
    this.options.stream.write(text);
  }
}
