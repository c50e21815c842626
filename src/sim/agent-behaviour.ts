import {
  arithmeticSlips,
  samplingSeed,
  slipsOnSample,
  statementOf,
  toolCallMalformed,
} from "./exposure.js";
import { readEntry } from "./families/multi-hop.js";
import { formatNumber, type Problem } from "./families/problem.js";
import { recognise } from "./families/recognise.js";
import { finalAnswer, wrongValue } from "./final-answer.js";
import { type RequestSurface, readSurface, toolChannel } from "./request-surface.js";
import type { SimReply, SimRequest } from "./sim-request.js";
import { type ToolExchange, toolHistory } from "./tool-history.js";
import type { World } from "./world-schema.js";

/** What the model does next: call a tool, answer with a value, or say something without answering. */
type Step =
  | { kind: "call"; name: string; arguments: Record<string, string>; note?: string }
  | { kind: "answer"; value: string; reasoning: string; decoys: string[]; hits: string[] }
  | { kind: "say"; text: string; hits: string[] };

/**
 * What the sim says to a task statement it can read but that is none of its world's families
 * ("What is the capital of France?"): like a model that does not know how to do a task — plain,
 * no answer line, no tool call. Not the lost-statement reply: the statement is right there.
 */
export const unknownTaskReply =
  "I don't know how to do this task: it is not a kind of question I can answer, so I have no answer to give.";

/** The lost-statement reply: the conversation no longer shows a task statement. */
const lostStatementReply =
  "I cannot see the question in our conversation, so I cannot answer it. Could you restate the task?";

/**
 * Whether the conversation still opens with the task statement: the first message after the
 * system prompt is a user message that is neither a text-protocol tool result nor a re-prompt
 * for the answer line. Context overflow
 * (`drop_oldest`) removes it, and the history then opens with an assistant or tool turn.
 */
function statementVisible(request: SimRequest): boolean {
  const first = request.messages.find(
    (message) => message.role !== "system" && message.role !== "developer",
  );
  // A re-prompt for the answer line (it holds the literal `Answer:`) left alone is not a task.
  return (
    first?.role === "user" &&
    !first.content.startsWith("RESULT ") &&
    !first.content.includes("Answer:")
  );
}

/** The agent-side sim: answers a task conversation from the request alone (docs/sim-protocol.md §1). */
export function agentReply(world: World, request: SimRequest): SimReply {
  const surface = readSurface(request);
  const users = request.messages.filter((message) => message.role === "user");
  const found = users
    .map((message) => ({ message, problem: recognise(message.content) }))
    .find((entry) => entry.problem);
  if (!found?.problem) {
    if (statementVisible(request)) return { content: unknownTaskReply, toolCalls: [], hits: [] };
    const lost = request.messages.some(
      (message) => message.role === "assistant" || message.role === "tool",
    );
    return { content: lostStatementReply, toolCalls: [], hits: lost ? ["context-loss"] : [] };
  }
  const problem = found.problem;
  const statement = statementOf(found.message.content);
  const history = toolHistory(request);
  const messagesNotes = request.messages
    .filter((message) => message.role === "assistant")
    .map((message) => message.content);
  const seed = samplingSeed(request);
  const context = { world, surface, problem, statement, history, messagesNotes, seed };
  const step =
    problem.kind === "compute"
      ? computeStep(context)
      : problem.kind === "chain"
        ? chainStep(context)
        : directStep(problem);
  if (step.kind === "say") return { content: step.text, toolCalls: [], hits: step.hits, statement };
  if (step.kind === "call") {
    const argumentsText = JSON.stringify(step.arguments);
    if (toolChannel(surface, step.name) === "native") {
      return {
        content: step.note ?? null,
        toolCalls: [{ name: step.name, arguments: argumentsText }],
        hits: [],
        statement,
      };
    }
    const prefix = step.note ? `${step.note}\n` : "";
    return {
      content: `${prefix}CALL ${step.name} ${argumentsText}`,
      toolCalls: [],
      hits: [],
      statement,
    };
  }
  const { content, hits } = finalAnswer({
    world,
    request,
    surface,
    problem,
    statement,
    value: step.value,
    reasoning: step.reasoning,
    decoys: step.decoys,
    hits: step.hits,
  });
  return { content, toolCalls: [], hits, statement };
}

interface StepContext {
  world: World;
  surface: RequestSurface;
  problem: Problem;
  statement: string;
  history: ToolExchange[];
  /** Text of the assistant messages still visible (the model's own progress notes). */
  messagesNotes: string[];
  /** The sampling seed (0 at temperature 0). */
  seed: number;
}

/** Positions in a chain the model noted in its own visible messages ("Lookup i of k: X."), latest first. */
function chainAnchors(notes: string[], length: number): { position: number; entity: string }[] {
  const anchors: { position: number; entity: string }[] = [];
  for (const note of notes) {
    for (const match of note.matchAll(/Lookup (\d+) of (\d+): (.+?)\.$/gm)) {
      if (Number(match[2]) === length)
        anchors.push({ position: Number(match[1]) - 1, entity: match[3] });
    }
  }
  return anchors.sort((a, b) => b.position - a.position);
}

const giveUp = (tool: string): Step => ({
  kind: "say",
  text: `The ${tool} tool returned an error, so I cannot finish this task.`,
  hits: ["tool-error-giveup"],
});

/** After a failed call: retry the right call only when guided (system rule or `Hint:`), else give up. */
function afterError(context: StepContext, last: ToolExchange, retry: Step): Step {
  const errors = context.history.filter(
    (exchange) => exchange.name === last.name && exchange.error,
  ).length;
  const guided = context.surface.guidedBySystem || last.hinted;
  return guided && errors < 3 ? retry : giveUp(last.name);
}

function directStep(problem: Problem): Step {
  if (problem.kind !== "direct") throw new Error("directStep: not a direct problem");
  return {
    kind: "answer",
    value: problem.answer,
    reasoning: "Reading the statement carefully.",
    decoys: problem.decoys,
    hits: [],
  };
}

function computeStep(context: StepContext): Step {
  const { world, surface, problem, statement, history, seed } = context;
  if (problem.kind !== "compute") throw new Error("computeStep: not a compute problem");
  const exact = formatNumber(problem.value);
  if (!toolChannel(surface, "calculator")) {
    const reasoning = (value: string) => `Working it out: ${problem.expression} = ${value}.`;
    if (
      arithmeticSlips(world, problem, statement) &&
      slipsOnSample({ world, kind: "arithmetic-slip", statement, seed })
    ) {
      const value = wrongValue({
        problem,
        value: exact,
        decoys: [],
        salt: `arithmetic${statement}`,
      });
      return {
        kind: "answer",
        value,
        reasoning: reasoning(value),
        decoys: [],
        hits: ["arithmetic-slip"],
      };
    }
    return { kind: "answer", value: exact, reasoning: reasoning(exact), decoys: [], hits: [] };
  }
  const calls = history.filter((exchange) => exchange.name === "calculator");
  const success = calls.findLast(
    (exchange) => !exchange.error && Number.isFinite(Number(exchange.result.trim())),
  );
  if (success) {
    const value = formatNumber(Number(success.result.trim()));
    return {
      kind: "answer",
      value,
      reasoning: `The calculator gives ${value}.`,
      decoys: [],
      hits: [],
    };
  }
  const correct: Step = {
    kind: "call",
    name: "calculator",
    arguments: { expression: problem.expression },
  };
  const last = calls.at(-1);
  if (last?.error) return afterError(context, last, correct);
  if (calls.length === 0 && toolCallMalformed(world, problem, statement)) {
    return {
      kind: "call",
      name: "calculator",
      arguments: { expression: problem.expression.replaceAll("*", "×") },
    };
  }
  return correct;
}

function chainStep(context: StepContext): Step {
  const { surface, problem, history } = context;
  if (problem.kind !== "chain") throw new Error("chainStep: not a chain problem");
  if (!toolChannel(surface, "lookup")) {
    return {
      kind: "say",
      text: `I have no way to look up ${problem.start} in the registry, so I cannot answer.`,
      hits: [],
    };
  }
  const lookups = history.filter((exchange) => exchange.name === "lookup");
  const entryOf = (entity: string) =>
    lookups.find(
      (exchange) =>
        !exchange.error &&
        String(exchange.arguments?.key ?? "")
          .trim()
          .toLowerCase() === entity.toLowerCase(),
    );
  const anchors = chainAnchors(context.messagesNotes, problem.relations.length);
  const path = [problem.start];
  let current = problem.start;
  for (let position = 0; position < problem.relations.length; position++) {
    let found = entryOf(current);
    if (!found) {
      // Earlier lookups may have been dropped from the context: resume from the latest note we can still see.
      const anchor = anchors.find(
        (candidate) => candidate.position > position && entryOf(candidate.entity),
      );
      if (anchor) {
        position = anchor.position;
        current = anchor.entity;
        path.push("…", current);
        found = entryOf(current);
      }
    }
    const relation = problem.relations[position];
    const note = `Lookup ${position + 1} of ${problem.relations.length}: ${current}.`;
    if (!found) return lookupCall(context, { lookups, key: current, note });
    const value = readEntry(found.result)[relation];
    if (!value)
      return {
        kind: "say",
        text: `The registry entry for ${current} does not list a ${relation}.`,
        hits: [],
      };
    current = value;
    path.push(current);
  }
  return {
    kind: "answer",
    value: current,
    reasoning: `Following the registry: ${path.join(" → ")}.`,
    decoys: path.slice(0, -1),
    hits: [],
  };
}

/** The lookup still to make: retried or given up after an error; the first may be malformed. */
function lookupCall(
  context: StepContext,
  { lookups, key, note }: { lookups: ToolExchange[]; key: string; note: string },
): Step {
  const next: Step = { kind: "call", name: "lookup", arguments: { key }, note };
  const last = lookups.at(-1);
  if (last?.error) return afterError(context, last, next);
  if (lookups.length === 0 && toolCallMalformed(context.world, context.problem, context.statement))
    return { kind: "call", name: "lookup", arguments: { key: `${key}'s record` }, note };
  return next;
}
