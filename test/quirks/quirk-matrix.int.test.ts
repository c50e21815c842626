import { afterAll, describe, expect, it } from "vitest";
import type { MisbehaviourKind, SimServer } from "../../src/sim/index.js";
import { evolveQuickstart, type QuirkRun, type QuirkServer } from "./quirk-project.js";

// The quirk matrix (issue #24): real models and servers that misbehave, each played by the sim
// behind a loopback server to the real `openai` SDK, on the agent side or the refiner side, for
// a whole `ecdysis evolve` of the quickstart. Every row either improves about as much as the
// clean endpoint, or stops with a non-zero exit naming the cause; no row exits 0 having learned
// nothing. `test/quirks/quirk-reporter.ts` writes the table into docs/quirks.md.

const servers: SimServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

let cleanRun: Promise<QuirkRun> | undefined;
/** The clean endpoint's run, made once. */
const clean = () => {
  cleanRun ??= evolveQuickstart({}, { servers });
  return cleanRun;
};

const heldout = (run: QuirkRun) =>
  `held-out ${pct(run.result.baseline.heldout.accuracy)} → ${pct(run.result.final.heldout.accuracy)}`;
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

type Annotate = (message: string) => Promise<unknown>;
/** "About as much": a held-out gain at most 5 points below the clean endpoint's (float slack). */
const within = 0.05 + 1e-9;
const gainOf = (run: QuirkRun) =>
  run.result.final.heldout.accuracy - run.result.baseline.heldout.accuracy;

/** A row that must end like the clean endpoint: exit 0, held-out gain within 5 points of it. */
async function improvesLikeClean(server: QuirkServer, annotate: Annotate): Promise<QuirkRun> {
  const [reference, run] = [await clean(), await evolveQuickstart(server, { servers })];
  await annotate(`exit ${run.code}; ${heldout(run)} (clean: ${heldout(reference)})`);
  expect(run.code, run.stderr).toBe(0);
  expect(gainOf(reference)).toBeGreaterThan(0);
  expect(gainOf(run)).toBeGreaterThanOrEqual(gainOf(reference) - within);
  return run;
}

/**
 * A context-length row: the endpoint refused some prompts as too long (else the row tests
 * nothing), and the run still improves like the clean endpoint — its prompts were fitted to the
 * size the refusals stated and sent again.
 */
async function fitsAndImprovesLikeClean(server: QuirkServer, annotate: Annotate): Promise<void> {
  const run = await improvesLikeClean(server, annotate);
  const { agent, refiner } = run.sim.requestsBySide();
  expect(run.sim.requests() - agent - refiner, "requests refused as too long").toBeGreaterThan(0);
}

/** A row that must stop with a non-zero exit and a message naming the cause. */
async function stopsNaming(
  server: QuirkServer,
  cause: RegExp,
  annotate: Annotate,
  edit?: (config: string) => string,
): Promise<QuirkRun> {
  const run = await evolveQuickstart(server, { servers, edit });
  const said = (
    run.stderr.match(/ecdysis evolve stopped: .*/)?.[0] ??
    run.stderr.trim().split("\n").at(-1) ??
    ""
  ).slice(0, 400);
  await annotate(`exit ${run.code}; ${said}`);
  expect(run.code).not.toBe(0);
  expect(run.stderr).toMatch(cause);
  return run;
}

const agent = (kind: MisbehaviourKind): QuirkServer => ({
  misbehaviours: [{ side: "agent", kind }],
});
const refiner = (kind: MisbehaviourKind): QuirkServer => ({
  misbehaviours: [{ side: "refiner", kind }],
});

describe("agent side", { timeout: 900_000 }, () => {
  it('reasoning only, content "" (vLLM\'s parser, thinking never closed): stops, names it', async ({
    annotate,
  }) => {
    await stopsNaming(
      agent("reasoning-only"),
      /agent model gave no usable reply.*reasoning only.*reasoning parser/,
      annotate,
    );
  });
  it("reasoning only, content null: stops, names it", async ({ annotate }) => {
    await stopsNaming(
      agent("reasoning-null"),
      /agent model gave no usable reply.*reasoning only/,
      annotate,
    );
  });
  it("empty content on every turn: stops, names it", async ({ annotate }) => {
    await stopsNaming(agent("empty"), /agent model gave no usable reply.*empty/, annotate);
  });
  it("refuses every task (\"I'm sorry, but I can't help with that.\"): stops, names it", async ({
    annotate,
  }) => {
    await stopsNaming(agent("refusal-text"), /agent model gave no usable reply.*refused/, annotate);
  });
  it("<think>…</think> with a draft answer before the reply: improves like the clean endpoint", async ({
    annotate,
  }) => {
    await improvesLikeClean(agent("think-tags"), annotate);
  });
  it("tool calls written as Hermes <tool_call> text: improves like the clean endpoint", async ({
    annotate,
  }) => {
    const run = await improvesLikeClean(agent("hermes-tools"), annotate);
    expect(run.stdout).toContain("tools: native → text");
  });
  it("tool calls written as Llama <|python_tag|>: improves like the clean endpoint", async ({
    annotate,
  }) => {
    await improvesLikeClean(agent("llama-tools"), annotate);
  });
  it("tool calls written as Mistral [TOOL_CALLS]: improves like the clean endpoint", async ({
    annotate,
  }) => {
    await improvesLikeClean(agent("mistral-tools"), annotate);
  });
  it("a 400 'maximum context length' on long agent prompts (vLLM): the history fitted to the stated limit (old turns dropped, the longest messages cut in the middle) and sent again: improves like the clean endpoint", async ({
    annotate,
  }) => {
    await fitsAndImprovesLikeClean(
      { misbehaviours: [{ side: "agent", kind: "context-limit", maxPromptChars: 1800 }] },
      annotate,
    );
  });
  it("thinking tokens only in total_tokens: improves like the clean endpoint, and they are billed", async ({
    annotate,
  }) => {
    const run = await improvesLikeClean(agent("usage-total-only"), annotate);
    const reference = await clean();
    expect(run.result.cost.completionTokens).toBeGreaterThan(
      reference.result.cost.completionTokens,
    );
  });
});

describe("refiner side", { timeout: 900_000 }, () => {
  it("empty content on every role call: stops, names it", async ({ annotate }) => {
    await stopsNaming(refiner("empty"), /refiner model gave no usable reply.*empty/, annotate);
  });
  it("refuses in words on every role call: stops, names it", async ({ annotate }) => {
    await stopsNaming(
      refiner("refusal-text"),
      /refiner model gave no usable reply.*refused.*follows the roles' instructions/,
      annotate,
    );
  });
  it("refuses with message.refusal on every role call: stops, names it", async ({ annotate }) => {
    await stopsNaming(
      refiner("refusal-field"),
      /refiner model gave no usable reply.*refused/,
      annotate,
    );
  });
  it("single-quoted JSON on every role call: stops, names it", async ({ annotate }) => {
    await stopsNaming(
      refiner("single-quoted-json"),
      /refiner model gave no usable reply.*not JSON/,
      annotate,
    );
  });
  it("JSON cut at the token limit on every try: stops, says to raise max tokens", async ({
    annotate,
  }) => {
    await stopsNaming(
      refiner("cut-at-limit"),
      /refiner model gave no usable reply.*cut at the token limit.*raise the role's max tokens/,
      annotate,
    );
  });
  it('reasoning only, content "": stops, names it', async ({ annotate }) => {
    await stopsNaming(
      refiner("reasoning-only"),
      /refiner model gave no usable reply.*reasoning only.*reasoning parser/,
      annotate,
    );
  });
  it("a 400 'maximum context length' on long role prompts (vLLM): the evidence fitted to the stated limit (compact, reference material first) and sent again: improves like the clean endpoint", async ({
    annotate,
  }) => {
    await fitsAndImprovesLikeClean(
      { misbehaviours: [{ side: "refiner", kind: "context-limit", maxPromptChars: 12_000 }] },
      annotate,
    );
  });
  it("<think>…</think> before the JSON: improves like the clean endpoint", async ({ annotate }) => {
    await improvesLikeClean(refiner("think-tags"), annotate);
  });
  it("response_format ignored (Anthropic's compatibility layer): improves like the clean endpoint", async ({
    annotate,
  }) => {
    await improvesLikeClean({ quirks: ["ignore-response-format"] }, annotate);
  });
  it("thinking tokens only in total_tokens: improves like the clean endpoint, and they are billed", async ({
    annotate,
  }) => {
    const run = await improvesLikeClean(refiner("usage-total-only"), annotate);
    const reference = await clean();
    expect(run.result.cost.refinement.tokens).toBeGreaterThan(
      reference.result.cost.refinement.tokens,
    );
  });
});

describe("both sides (the endpoint)", { timeout: 900_000 }, () => {
  it("Gemini refuses seed (an array error body): improves like the clean endpoint", async ({
    annotate,
  }) => {
    const run = await improvesLikeClean({ quirks: ["rejects-seed"] }, annotate);
    expect(run.stdout).toContain("seed: sent → omitted");
    // Each iteration's verdict is on the live status (plain lines here: CI=true), with its why.
    expect(run.stderr).toMatch(/^iteration 1: (accepted|rejected|refused|stopped) \(.+\)$/m);
    expect(run.stderr).toMatch(/^iteration \d+: accepted \(.*p [=<] /m);
  });
});

describe("the scorer", { timeout: 900_000 }, () => {
  it("a scoring command that is missing (exit 127): stops before any refiner call, showing its stderr", async ({
    annotate,
  }) => {
    const run = await stopsNaming(
      {},
      /scoring command '\.\/score\.sh' gave no verdict: exit 127.*stderr: .*score\.sh/,
      annotate,
      (config) =>
        config.replace(
          "  heldout: tasks/heldout.jsonl\n",
          "  heldout: tasks/heldout.jsonl\n  scorer:\n    kind: command\n    command: ./score.sh\n",
        ),
    );
    expect(run.sim.requestsBySide().refiner).toBe(0);
  });
});
