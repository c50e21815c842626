import { harnessConfigSchema } from "../../config/harness-schema.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import type { LoadedHarness } from "../../harness/types.js";
import { ScriptedProvider } from "../../llm/scripted-provider.js";
import type { ChatRequest, ChatResponse } from "../../llm/types.js";

/** Test fixture: an in-memory built-in harness. */
export function makeHarness(rules = ["Show your work."]): LoadedHarness {
  return {
    kind: "builtin",
    dir: "/nonexistent/harness",
    files: {
      "harness.yaml": "agent_loop:\n  max_steps: 4\n",
      "system.md": "You are a careful assistant.\n",
      "rules.md": rules.map((rule) => `- ${rule}`).join("\n"),
    },
    config: harnessConfigSchema.parse({ agent_loop: { max_steps: 4 } }),
    hash: "h0",
  };
}

/** Test fixture: a classified pattern with `tasks` distinct example tasks. */
export function makePattern(
  id: string,
  options: {
    tasks?: number;
    kind?: FailurePattern["kind"];
    taskText?: (index: number) => string;
  } = {},
): FailurePattern {
  const n = options.tasks ?? 6;
  const taskIds = Array.from({ length: n }, (_, index) => `${id}-t${index}`);
  return {
    id,
    name: `pattern-${id}`,
    description: "runs out of steps on multi-hop tasks",
    module: "agent_loop",
    namedBy: "llm",
    groupKeys: ["step-limit|budget"],
    signals: ["step-limit"],
    causes: ["budget"],
    memberKeys: taskIds.map((taskId) => `k-${taskId}`),
    taskIds,
    support: { tasks: n, categories: 2, categoryNames: ["a", "b"] },
    examples: taskIds.slice(0, 5).map((taskId, index) => ({
      rolloutKey: `k-${taskId}`,
      taskId,
      category: index % 2 ? "a" : "b",
      task: options.taskText?.(index) ?? `Who founded the company of ${taskId}?`,
      output: "I need more steps",
      answer: null,
      events: ["step-limit"],
      note: "cut by the step budget",
      toolCalls: [],
    })),
    kind: options.kind ?? "systematic",
    reasons: [{ code: "supported", detail: `${n} tasks` }],
  };
}

type Reply = Partial<ChatResponse> | undefined;
/** Per-schema reply scripts; each gets the request and how many times that schema was asked before. */
export type RoleScripts = Partial<Record<string, (request: ChatRequest, nth: number) => Reply>>;

/** A ScriptedProvider that dispatches on the request's schema name. */
export function roleProvider(scripts: RoleScripts): ScriptedProvider {
  const counts = new Map<string, number>();
  return new ScriptedProvider((request) => {
    const name = request.jsonSchema?.name ?? "";
    const nth = counts.get(name) ?? 0;
    counts.set(name, nth + 1);
    return scripts[name]?.(request, nth);
  });
}

/** Default role replies: diagnose every pattern, one change, accept, one set edit; the reflector the same in one reply. */
export const defaultScripts: RoleScripts = {
  diagnosis: () => ({
    content: JSON.stringify({
      diagnoses: [
        {
          patternId: "p1",
          rootCause: "max_steps 4 is too small",
          module: "agent_loop",
          confidence: 0.8,
        },
      ],
    }),
  }),
  hms: () => ({
    content: JSON.stringify({
      changes: [
        {
          module: "agent_loop",
          change: "raise agent_loop.max_steps to 8",
          patterns: ["p1"],
          expectedEffect: "multi-hop tasks finish",
          regressionRisks: ["slower runs"],
        },
      ],
    }),
  }),
  critique: () => ({ content: JSON.stringify({ verdict: "accept", objections: [] }) }),
  edits: () => ({
    content: JSON.stringify({
      edits: [
        {
          module: "agent_loop",
          patterns: ["p1"],
          rationale: "more steps",
          edit: { kind: "set", path: "agent_loop.max_steps", value: 8 },
        },
      ],
    }),
  }),
  reflection: () => ({
    content: JSON.stringify({
      diagnoses: [{ rootCause: "max_steps 4 is too small", module: "agent_loop" }],
      edits: [
        {
          module: "agent_loop",
          patterns: [],
          rationale: "more steps",
          edit: { kind: "set", path: "agent_loop.max_steps", value: 8 },
        },
      ],
    }),
  }),
};
