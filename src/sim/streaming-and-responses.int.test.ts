import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { loadWorld } from "./load-world.js";
import { type SimServer, startSimServer } from "./server.js";
import { generateWorld } from "./task-generation.js";

// The APIs agents use besides plain chat completions — streaming (SSE) and the Responses API
// (the OpenAI Agents SDK's default) — served by the sim and read by the real openai SDK, so a
// command harness written against either runs on the simulated model.

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start() {
  const world = await loadWorld("quickstart");
  const server = await startSimServer({ world, latencyScale: 0 });
  servers.push(server);
  const client = new OpenAI({ baseURL: server.url, apiKey: "sim", maxRetries: 0 });
  const task = generateWorld(world).train.find((entry) => entry.category === "arithmetic");
  if (!task) throw new Error("no arithmetic task in the quickstart world");
  return { server, client, task };
}

const calculator = {
  name: "calculator",
  description: "Evaluate an arithmetic expression",
  parameters: { type: "object", properties: { expression: { type: "string" } } },
};

describe("the sim's streaming chat completions", () => {
  it("streams the same reply as the plain call, tool calls and usage included", async () => {
    const { client, task } = await start();
    const request = {
      model: "sim-1",
      messages: [
        { role: "system" as const, content: "Use the calculator." },
        { role: "user" as const, content: task.input },
      ],
      tools: [{ type: "function" as const, function: calculator }],
      seed: 0,
    };
    const plain = await client.chat.completions.create(request);
    const streamed = await client.chat.completions
      .stream({ ...request, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(plain.choices[0].message.tool_calls?.length).toBeGreaterThan(0);
    // Call ids are the server's own per request (as a real model's are); the calls are the same.
    const calls = (completion: typeof plain) =>
      completion.choices[0].message.tool_calls?.map(
        (call) => call.type === "function" && call.function,
      );
    expect(calls(streamed)).toEqual(calls(plain));
    expect(streamed.choices[0].finish_reason).toBe("tool_calls");
    expect(streamed.usage).toEqual(plain.usage);
  });
});

describe("the sim's Responses API", () => {
  it("calls a function tool, takes its output and answers, streamed or not", async () => {
    const { client, task } = await start();
    const tools = [{ type: "function" as const, strict: false, ...calculator }];
    const first = await client.responses.create({
      model: "sim-1",
      instructions: "Use the calculator. End with a line `Answer: <value>`.",
      input: task.input,
      tools,
    });
    const call = first.output.find((item) => item.type === "function_call");
    if (call?.type !== "function_call") throw new Error("expected a function call");
    expect(call.name).toBe("calculator");
    expect(first.usage?.input_tokens).toBeGreaterThan(0);
    const input = [
      { role: "user" as const, content: task.input },
      call,
      {
        type: "function_call_output" as const,
        call_id: call.call_id,
        output: String(task.expected),
      },
    ];
    const request = {
      model: "sim-1",
      instructions: "Use the calculator. End with a line `Answer: <value>`.",
      input,
      tools,
    };
    const plain = await client.responses.create(request);
    const streamed = await client.responses.stream(request).finalResponse();
    expect(plain.output_text).toContain(`Answer: ${task.expected}`);
    expect(streamed.output_text).toBe(plain.output_text);
    expect(streamed.usage).toEqual(plain.usage);
  });

  it("refuses previous_response_id with the reason (it stores no responses)", async () => {
    const { client } = await start();
    const error = await client.responses
      .create({ model: "sim-1", input: "hi", previous_response_id: "resp_1" })
      .catch((caught: unknown) => caught);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect(String(error)).toContain("send the whole conversation");
  });
});
