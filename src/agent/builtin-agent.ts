import type { HarnessConfig } from "../config/harness-schema.js";
import { InputError } from "../errors/input-error.js";
import { renderSystemPrompt } from "../harness/render.js";
import { extractAnswer } from "./completion.js";
import { Conversation } from "./conversation.js";
import { enabledTools } from "./tools.js";
import { type AgentClock, monotonicClock, TraceRecorder } from "./trace-recorder.js";
import type { AgentAdapter, Trace } from "./types.js";

/** The extra user turn `agent_loop.self_check` adds after a candidate answer. */
export const selfCheckMessage =
  "Check your answer step by step. If it is wrong, correct it. End with one line of the form 'Answer: <value>'.";

/**
 * The built-in agent runtime: renders a built-in harness into chat requests (docs/sim-protocol.md
 * §1) and runs its loop, tools, observation, context and completion policies. Tools are always
 * offered as native tool calls; for a server without them the provider speaks the text protocol
 * (src/llm/text-tool-protocol.ts). Transport errors end the trace with an `llm-error` event; the
 * runner decides.
 */
export function builtinAgent(options: { clock?: AgentClock } = {}): AgentAdapter {
  const clock = options.clock ?? monotonicClock;
  return {
    async run({ task, harness, provider, sampleIndex, signal }): Promise<Trace> {
      const config = harness.config;
      if (harness.kind !== "builtin" || !config)
        throw new InputError(
          harness.dir,
          "the built-in agent needs a built-in harness (harness.yaml)",
        );
      const recorder = new TraceRecorder(clock);
      const tools = config.agent_loop.style === "react" ? enabledTools(config) : [];
      const system = renderSystemPrompt(harness);
      const conversation = new Conversation({
        harness,
        config,
        provider,
        recorder,
        system,
        tools,
        seed: sampleIndex,
        signal,
      });
      conversation.say(task.input);
      const answer = await runLoop({ conversation, config, recorder });
      return recorder.finish(answer);
    },
  };
}

async function runLoop(input: {
  conversation: Conversation;
  config: HarnessConfig;
  recorder: TraceRecorder;
}): Promise<string | null> {
  const { conversation, config, recorder } = input;
  const pattern = config.completion.answer_pattern;
  const budget = config.agent_loop.style === "single_shot" ? 1 : config.agent_loop.max_steps;
  let finalText: string | null = null;
  for (let turns = 0; ; turns += 1) {
    if (turns >= budget) {
      recorder.event(
        "step-limit",
        `stopped after ${budget} model turns (agent_loop.max_steps)`,
        recorder.steps.length,
      );
      return extractAnswer(recorder.lastAssistantText(), pattern);
    }
    const result = await conversation.turn();
    if (!result) return null;
    if (!result.calledTools) {
      finalText = result.text;
      break;
    }
  }
  let answer = extractAnswer(finalText, pattern);
  if (answer === null && config.completion.on_missing === "reprompt") {
    recorder.event(
      "reprompt",
      "no answer matched completion.answer_pattern; asked once more",
      recorder.steps.length,
    );
    conversation.say(config.completion.reprompt_message);
    const result = await conversation.turn();
    if (!result) return null;
    answer = extractAnswer(result.text, pattern);
  }
  if (answer === null) {
    recorder.event(
      "no-answer",
      `no text matched completion.answer_pattern ${JSON.stringify(pattern)}`,
    );
    return null;
  }
  if (config.agent_loop.self_check) {
    recorder.event("self-check", `candidate answer: ${answer}`, recorder.steps.length);
    conversation.say(selfCheckMessage);
    const result = await conversation.turn();
    const checked = result ? extractAnswer(result.text, pattern) : null;
    if (checked !== null) answer = checked;
  }
  return answer;
}
