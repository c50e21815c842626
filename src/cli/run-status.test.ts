import { describe, expect, it } from "vitest";
import type { ModelCallEvent } from "../evolve/meter.js";
import { RunStatus } from "./run-status.js";
import { TerminalScreen } from "./testing/terminal-screen.js";

/** A status with a hand-driven clock and redraw ticker. */
function setup(options: {
  tty: boolean;
  env?: Record<string, string>;
  signal?: AbortSignal;
  columns?: number;
}) {
  let now = 0;
  let redraw = () => {};
  const screen = new TerminalScreen(options.columns ?? 120);
  const plain: string[] = [];
  const stream = options.tty ? screen : { write: (text: string) => plain.push(text) };
  const status = new RunStatus({
    stream,
    env: options.env ?? {},
    title: "ecdysis evolve",
    now: () => now,
    ticker: (callback) => {
      redraw = callback;
      return () => {
        redraw = () => {};
      };
    },
    intervalMs: 10_000,
    idleMs: 1_000,
    signal: options.signal,
  });
  return {
    status,
    screen,
    plain: () => plain.join(""),
    advance(ms: number) {
      now += ms;
      redraw();
    },
  };
}

const call = (
  phase: ModelCallEvent["phase"],
  purpose: string,
  extra: Partial<ModelCallEvent> = {},
): ModelCallEvent => ({
  phase,
  role: purpose === "agent" ? "agent" : "refiner",
  purpose,
  ...(phase === "end" ? { promptTokens: 900, completionTokens: 100, costUsd: 0.002 } : {}),
  ...extra,
});

describe("RunStatus on a TTY", () => {
  it("keeps one line per concurrent phase and one for the refiner, with elapsed time, ETA, tokens and cost", () => {
    const { status, screen, advance } = setup({ tty: true });
    const seed = status.progress();
    const final = status.progress();
    seed.start("seed: held-out", 40);
    final.start("final: held-out", 40);
    advance(2_000);
    seed.tick(10, 4);
    final.tick(20, 15);
    status.onCall(call("start", "diagnostician"));
    status.onCall(call("start", "diagnostician"));
    status.onCall(call("start", "skeptic"));
    status.onCall(call("end", "diagnostician"));
    status.onCall(call("end", "agent"));
    advance(2_000);
    expect(screen.text()).toEqual([
      "⠹ ecdysis evolve · 4.0s · 2 calls · 2.00k tokens · $0.0040 (agent $0.0020, refiner $0.0020)",
      "  seed: held-out ████████░░░░░░░░░░░░░░░░░░░░░░ 10/40 · 4 passed · 4.0s · ETA 12s",
      "  final: held-out ███████████████░░░░░░░░░░░░░░░ 20/40 · 15 passed · 4.0s · ETA 4.0s",
      "  refiner: diagnostician, skeptic · 1 done · 1.00k tokens · $0.0020 · 2.0s",
    ]);
    seed.end();
    expect(screen.text()[0]).toBe("seed: held-out: 4/10 passed = 40.0% (10/40 ran) in 4.0s");
    expect(screen.text()).toHaveLength(4);
  });

  it("leaves a summary line when the refiner goes idle, and only permanent lines when closed", () => {
    const { status, screen, advance } = setup({ tty: true });
    status.onCall(call("start", "failure-notes"));
    status.onCall(call("start", "pattern-merge"));
    advance(500);
    status.onCall(call("end", "failure-notes"));
    status.onCall(call("end", "pattern-merge"));
    status.onCall(call("start", "failure-notes"));
    status.onCall(call("end", "failure-notes", { cached: true }));
    advance(1_200);
    expect(screen.text()).toEqual([
      "refiner: 2 calls (failure-notes 1, pattern-merge 1) +1 replayed · 2.00k tokens · $0.0040 in 0.5s",
      "⠹ ecdysis evolve · 1.7s · 2 calls (+1 replayed) · 2.00k tokens · $0.0040 (agent $0.0000, refiner $0.0040)",
    ]);
    const phase = status.progress();
    phase.start("iteration 1: batch", 3);
    phase.tick(3, 2);
    phase.end();
    status.close();
    expect(screen.text()).toEqual([
      "refiner: 2 calls (failure-notes 1, pattern-merge 1) +1 replayed · 2.00k tokens · $0.0040 in 0.5s",
      "iteration 1: batch: 2/3 passed = 66.7% in 0.0s",
    ]);
  });

  it("cuts lines to the terminal width instead of letting them wrap", () => {
    const { status, screen, advance } = setup({ tty: true, columns: 60 });
    status.progress().start("iteration 12: validate-cheap-pruned with a long label", 40);
    status.onCall(call("start", "diagnostician"));
    advance(1_000);
    for (const line of screen.text()) expect([...line].length).toBeLessThan(60);
    expect(screen.text()[1]).toMatch(/…$/);
  });

  it("on Ctrl-C clears the live block and says where each open phase stopped", () => {
    const controller = new AbortController();
    const { status, screen, advance } = setup({ tty: true, signal: controller.signal });
    const phase = status.progress();
    phase.start("iteration 2: validate-cheap", 23);
    phase.tick(12, 9);
    status.onCall(call("start", "editor"));
    advance(300);
    controller.abort();
    expect(screen.text()).toEqual([
      "iteration 2: validate-cheap: interrupted at 12/23",
      "refiner: interrupted with 1 call running",
    ]);
    // Late events from work still winding down draw nothing.
    phase.tick(13, 9);
    status.onCall(call("end", "editor"));
    advance(300);
    expect(screen.text()).toHaveLength(2);
  });
});

describe("RunStatus without a TTY", () => {
  it("writes plain lines: start, an interim line per interval with ETA, end; refiner start and summary", () => {
    const { status, plain, advance } = setup({ tty: false });
    const phase = status.progress();
    phase.start("iteration 1: batch", 40);
    advance(4_000);
    phase.tick(10, 6);
    advance(6_000);
    status.onCall(call("start", "diagnostician"));
    advance(11_000);
    status.onCall(call("end", "diagnostician"));
    phase.tick(40, 30);
    phase.end();
    advance(1_500);
    status.close();
    expect(plain()).toBe(
      [
        "iteration 1: batch: 40 rollouts…",
        "iteration 1: batch: 10/40 rollouts (25%), 6 passed, 10s, ETA 30s",
        "refiner: diagnostician…",
        "iteration 1: batch: 10/40 rollouts (25%), 6 passed, 21s, ETA 1m03s",
        "refiner: diagnostician · 0 done · 0 tokens · $0.0000 · 11s",
        "iteration 1: batch: 30/40 passed = 75.0% in 21s",
        "refiner: 1 call (diagnostician 1) · 1.00k tokens · $0.0020 in 11s",
        "",
      ].join("\n"),
    );
    expect(plain()).not.toContain("\u001b");
  });

  it("is plain on a TTY too when CI=true", () => {
    const { status, screen } = setup({ tty: true, env: { CI: "true" } });
    status.progress().start("train", 4);
    expect(screen.text()).toEqual(["train: 4 rollouts…"]);
  });
});
