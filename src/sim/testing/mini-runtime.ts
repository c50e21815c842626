import type { Task } from "../../config/task-schema.js";
import { agentReply } from "../agent-behaviour.js";
import { evaluate } from "../families/arithmetic.js";
import type { SimMessage, SimRequest } from "../sim-request.js";
import type { World } from "../world-schema.js";

/**
 * Test double of the built-in agent runtime: renders a harness into requests exactly as
 * docs/sim-protocol.md §1 says and drives the sim in-process. Lets the sim's tests show that
 * harness changes (not labels) change outcomes, without depending on src/agent.
 */
export interface MiniHarness {
  system: string;
  rules: string[];
  formatInstruction: string;
  calculator: boolean;
  lookup: boolean;
  maxSteps: number;
  onError: "show" | "hint";
  contextChars: number;
  overflow: "drop_oldest" | "keep_task";
  onMissing: "fail" | "reprompt";
  textProtocol: boolean;
}

/** The seed harness that generateWorldFiles writes, as a MiniHarness. */
export function seedMiniHarness(world: World): MiniHarness {
  return {
    system:
      "You are a helpful assistant. Solve the user's task. Use the tools you are given when they help.",
    rules: ["Be polite.", "Keep replies short."],
    formatInstruction: "",
    calculator: false,
    lookup: true,
    maxSteps: world.seedHarness.maxSteps,
    onError: "show",
    contextChars: world.seedHarness.contextChars,
    overflow: "drop_oldest",
    onMissing: "fail",
    textProtocol: false,
  };
}

/** Outcome of one mini rollout. */
export interface MiniRollout {
  answer: string | null;
  output: string;
  events: string[];
  requests: SimRequest[];
}

function systemPrompt(harness: MiniHarness): string {
  const parts = [harness.system, "", "## Rules", ...harness.rules.map((rule) => `- ${rule}`)];
  if (harness.formatInstruction) parts.push("", "## Answer format", harness.formatInstruction);
  if (harness.textProtocol) {
    const tools = [
      harness.calculator ? '- calculator {"expression": string}' : "",
      harness.lookup ? '- lookup {"key": string}' : "",
    ];
    parts.push(
      "",
      "## Tools",
      "Call a tool with one line: CALL <name> <json-arguments>",
      ...tools.filter(Boolean),
    );
  }
  return parts.join("\n");
}

function size(message: SimMessage): number {
  return message.content.length + JSON.stringify(message.toolCalls ?? "").length;
}

function visible(history: SimMessage[], harness: MiniHarness): SimMessage[] {
  // Units as the real runtime drops them: a tool call leaves together with its results.
  const units: SimMessage[][] = [];
  for (const message of history) {
    const isResult =
      message.role === "tool" || (message.role === "user" && message.content.startsWith("RESULT "));
    const previous = units.at(-1);
    if (isResult && previous && previous[0].role === "assistant") previous.push(message);
    else units.push([message]);
  }
  const unitSize = (unit: SimMessage[]) => unit.reduce((sum, message) => sum + size(message), 0);
  let total = units.reduce((sum, unit) => sum + unitSize(unit), 0);
  const pinned = harness.overflow === "keep_task" ? 1 : 0;
  while (total > harness.contextChars && units.length > pinned + 1) {
    const [removed] = units.splice(pinned, 1);
    total -= unitSize(removed);
  }
  return units.flat();
}

function runTool(name: string, argumentsText: string, knowledge: string): string {
  const args = JSON.parse(argumentsText) as Record<string, string>;
  if (name === "calculator") {
    const bad = /[^0-9+\-*/().% ]/.exec(args.expression ?? "");
    if (bad) return `error: invalid character '${bad[0]}' in expression`;
    return String(evaluate(args.expression));
  }
  const key = (args.key ?? "").trim().toLowerCase();
  const entry = knowledge
    .split(/^(?=## )/m)
    .find((block) => block.slice(3).split("\n")[0].trim().toLowerCase() === key);
  return entry ? entry.trim() : `error: no entry named '${args.key}'`;
}

/** Runs one task under a mini harness against the in-process sim. */
export function runMini(options: MiniRunOptions): MiniRollout {
  const { harness, task } = options;
  const run: MiniRun = {
    options,
    history: [{ role: "user", content: task.input }],
    events: [],
    requests: [],
    reprompted: false,
  };
  for (let step = 0; step < harness.maxSteps; step++) {
    const ended = miniStep(run, step);
    if (ended) return ended;
  }
  run.events.push("step-limit");
  return { answer: null, output: "", events: run.events, requests: run.requests };
}

interface MiniRunOptions {
  world: World;
  harness: MiniHarness;
  task: Task;
  knowledge: string;
  model?: string;
  seed?: number;
}

/** One rollout's state as its steps go. */
interface MiniRun {
  options: MiniRunOptions;
  history: SimMessage[];
  events: string[];
  requests: SimRequest[];
  reprompted: boolean;
}

/** One model call and what follows from it; the rollout when it ends here. */
function miniStep(run: MiniRun, step: number): MiniRollout | undefined {
  const { world, harness, knowledge } = run.options;
  const { history, events, requests } = run;
  const shown = visible(history, harness);
  if (shown[0] !== history[0]) events.push("context-overflow");
  const request: SimRequest = {
    model: run.options.model ?? "sim-1",
    messages: [{ role: "system", content: systemPrompt(harness) }, ...shown],
    tools: toolsOf(harness),
    seed: run.options.seed ?? 0,
    temperature: 0,
  };
  requests.push(request);
  const reply = agentReply(world, request);
  const content = reply.content ?? "";
  const textCall = /^CALL (\w+) (.*)$/m.exec(content);
  if (reply.toolCalls.length > 0) {
    const call = reply.toolCalls[0];
    const id = `c${step}`;
    history.push({ role: "assistant", content, toolCalls: [{ id, ...call }] });
    history.push({
      role: "tool",
      toolCallId: id,
      content: withHint(runTool(call.name, call.arguments, knowledge), harness, events),
    });
    return undefined;
  }
  if (textCall) {
    history.push({ role: "assistant", content });
    const result = withHint(runTool(textCall[1], textCall[2], knowledge), harness, events);
    history.push({ role: "user", content: `RESULT ${textCall[1]}: ${result}` });
    return undefined;
  }
  return finalReply(run, content);
}

/** A reply with no tool call: the answer, one re-prompt, or no answer. */
function finalReply(run: MiniRun, content: string): MiniRollout | undefined {
  const { events, requests, history } = run;
  const answer = /Answer:\s*(.+)/.exec(content)?.[1]?.trim() ?? null;
  if (answer !== null) return { answer, output: content, events, requests };
  if (run.options.harness.onMissing === "reprompt" && !run.reprompted) {
    run.reprompted = true;
    events.push("reprompt");
    history.push({ role: "assistant", content });
    history.push({
      role: "user",
      content:
        "Your reply did not contain a final answer. Reply with one line of the form 'Answer: <value>'.",
    });
    return undefined;
  }
  events.push("no-answer");
  return { answer: null, output: content, events, requests };
}

function toolsOf(harness: MiniHarness): string[] {
  if (harness.textProtocol) return [];
  return [harness.calculator && "calculator", harness.lookup && "lookup"].filter(
    (tool): tool is string => Boolean(tool),
  );
}

function withHint(result: string, harness: MiniHarness, events: string[]): string {
  if (!result.startsWith("error:")) return result;
  events.push("tool-error");
  return harness.onError === "hint"
    ? `${result}\n\nHint: check the tool's argument format and call it again.`
    : result;
}

/** Scores like the eval stage would (numeric tolerance, or normalised exact match). */
export function passes(task: Task, answer: string | null): boolean {
  if (answer === null) return false;
  if (typeof task.expected === "number") return Math.abs(Number(answer) - task.expected) < 1e-6;
  return answer.trim().toLowerCase() === String(task.expected).trim().toLowerCase();
}
