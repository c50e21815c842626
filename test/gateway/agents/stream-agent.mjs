// A user's agent on the official `openai` package, streaming its chat completions. It reads
// nothing but what the SDK reads by itself (OPENAI_API_KEY, OPENAI_BASE_URL) and the model name
// Ecdysis gives it; its prompt, tool and limits are the editable files beside it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { runCalculator } from "./calculator.mjs";

const here = process.env.ECDYSIS_HARNESS_DIR ?? ".";
const read = (file) => readFileSync(join(here, file), "utf8");
const task = JSON.parse(readFileSync(0, "utf8"));
const settings = JSON.parse(read("settings.json"));
const tool = JSON.parse(read("tools/calculator.json"));
const client = new OpenAI();
const messages = [
  { role: "system", content: read("prompts/system.md") },
  { role: "user", content: task.input },
];
const steps = [];
const events = [];
let output = "";
for (let step = 0; step < settings.max_steps; step++) {
  const stream = client.chat.completions.stream({
    model: process.env.ECDYSIS_MODEL,
    messages,
    tools: [{ type: "function", function: tool }],
    temperature: settings.temperature,
    seed: task.sampleIndex,
    stream_options: { include_usage: true },
  });
  let chunks = 0;
  stream.on("chunk", () => (chunks += 1));
  const completion = await stream.finalChatCompletion();
  const message = completion.choices[0].message;
  const record = {
    assistant: message.content,
    toolCalls: [],
    promptTokens: completion.usage?.prompt_tokens ?? 0,
    completionTokens: completion.usage?.completion_tokens ?? 0,
  };
  steps.push(record);
  events.push({ kind: "streamed", step, detail: `${chunks} chunks` });
  output = message.content ?? "";
  if (!message.tool_calls?.length) break;
  messages.push({ role: "assistant", content: message.content, tool_calls: message.tool_calls });
  for (const call of message.tool_calls) {
    const { result, error } = runCalculator(call.function.arguments);
    if (error) events.push({ kind: "tool-error", step, detail: result });
    record.toolCalls.push({
      name: call.function.name,
      arguments: call.function.arguments,
      result,
      error,
    });
    messages.push({ role: "tool", tool_call_id: call.id, content: result });
  }
  if (step === settings.max_steps - 1) events.push({ kind: "step-limit", step });
}
process.stdout.write(JSON.stringify({ output, trace: { steps, events } }));
