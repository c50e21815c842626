// A user's agent on the official `openai` package and the Responses API (the OpenAI Agents
// SDK's default), with a function tool. It keeps the conversation itself (no stored responses)
// and reads only what the SDK reads (OPENAI_API_KEY, OPENAI_BASE_URL) and the model name.
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
const tools = [{ type: "function", strict: false, ...tool }];
const instructions = read("prompts/system.md");
let input = [{ role: "user", content: task.input }];
const steps = [];
const events = [];
let output = "";
for (let step = 0; step < settings.max_steps; step++) {
  const response = await client.responses.create({
    model: process.env.ECDYSIS_MODEL,
    instructions,
    input,
    tools,
    temperature: settings.temperature,
    store: false,
  });
  const calls = response.output.filter((item) => item.type === "function_call");
  const record = {
    assistant: response.output_text || null,
    toolCalls: [],
    promptTokens: response.usage?.input_tokens ?? 0,
    completionTokens: response.usage?.output_tokens ?? 0,
  };
  steps.push(record);
  output = response.output_text ?? "";
  if (calls.length === 0) break;
  input = [...input, ...response.output];
  for (const call of calls) {
    const { result, error } = runCalculator(call.arguments);
    if (error) events.push({ kind: "tool-error", step, detail: result });
    record.toolCalls.push({ name: call.name, arguments: call.arguments, result, error });
    input.push({ type: "function_call_output", call_id: call.call_id, output: result });
  }
  if (step === settings.max_steps - 1) events.push({ kind: "step-limit", step });
}
process.stdout.write(JSON.stringify({ output, trace: { steps, events } }));
