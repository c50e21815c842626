import { describe, expect, it } from "vitest";
import { stepDownBody } from "./body-step-down.js";
import { mapBody } from "./capabilities.js";
import { CapabilityMemory } from "./capability-memory.js";
import { CapabilityState } from "./capability-state.js";
import { testModelConfig } from "./testing/model-config.js";

// The step-down on raw bodies, as the model gateway of command harnesses forwards an agent's own
// requests: the refusal read in each service's error shape, the body mapped by the records.

const agentBody = {
  model: "gemini-2.0-flash",
  messages: [
    { role: "system", content: "You are a helpful agent." },
    { role: "user", content: [{ type: "text", text: "What is 17 * 23?" }] },
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "calculator",
        description: "Evaluates an arithmetic expression.",
        parameters: { type: "object", properties: { expression: { type: "string" } } },
      },
    },
  ],
  tool_choice: "auto",
  temperature: 0.2,
  max_tokens: 300,
  seed: 7,
  top_k: 20,
};

function state(overrides = {}) {
  return new CapabilityState({
    config: testModelConfig("http://gateway.invalid/v1", {
      model: "gemini-2.0-flash",
      ...overrides,
    }),
    endpoint: "http://gateway.invalid/v1",
    memory: CapabilityMemory.inMemory(),
  });
}

const seedRefusals: [string, number, unknown][] = [
  [
    "Gemini (a JSON array)",
    400,
    [
      {
        error: {
          code: 400,
          message: 'Invalid JSON payload received. Unknown name "seed": Cannot find field.',
          status: "INVALID_ARGUMENT",
        },
      },
    ],
  ],
  [
    "OpenAI",
    400,
    {
      error: {
        message: "Unsupported parameter: 'seed' is not supported with this model.",
        type: "invalid_request_error",
        param: "seed",
        code: "unsupported_parameter",
      },
    },
  ],
  [
    "Azure",
    400,
    { error: { code: "400", message: "Unrecognized request argument supplied: seed" } },
  ],
  [
    "Anthropic",
    400,
    {
      type: "error",
      error: { type: "invalid_request_error", message: "seed: Extra inputs are not permitted" },
    },
  ],
  [
    "vLLM",
    400,
    {
      object: "error",
      message:
        "[{'type': 'extra_forbidden', 'loc': ('body', 'seed'), 'msg': 'Extra inputs are not permitted', 'input': 7}]",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  ],
  ["Ollama", 400, { error: { message: "Unknown field: seed", type: "invalid_request_error" } }],
  [
    "llama.cpp",
    500,
    { error: { code: 500, message: "Unsupported param: seed", type: "server_error" } },
  ],
  [
    "LiteLLM",
    400,
    {
      error: {
        message:
          "litellm.UnsupportedParamsError: gemini does not support parameters: ['seed'], for model=gemini-2.0-flash. To drop these, set `litellm.drop_params=True`",
        type: null,
        param: null,
        code: "400",
      },
    },
  ],
];

describe("stepDownBody", () => {
  it.each(seedRefusals)(
    "%s refuses seed: the next body leaves it out",
    async (_name, status, error) => {
      const endpoint = state();
      const sent = endpoint.current();
      const next = await stepDownBody({
        body: agentBody,
        sent,
        status,
        errorBody: JSON.stringify(error),
        state: endpoint,
      });
      expect(next?.body).not.toHaveProperty("seed");
      expect(next?.body).toMatchObject({ temperature: 0.2, max_tokens: 300, top_k: 20 });
      expect(next?.downgrade).toMatchObject({ parameter: "seed", from: "sent", to: "omitted" });
      expect(endpoint.current().seed).toBe(false);
    },
  );

  it("tools refused: the agent's conversation goes out in the text protocol", async () => {
    const endpoint = state();
    const next = await stepDownBody({
      body: agentBody,
      sent: endpoint.current(),
      status: 400,
      errorBody: JSON.stringify({ error: "gemini-2.0-flash does not support tools" }),
      state: endpoint,
    });
    const body = next?.body as { messages: { role: string; content: string }[] };
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("tool_choice");
    expect(body.messages[0].content).toContain("## Tools\n- calculator: Evaluates");
    expect(body.messages[1]).toEqual({ role: "user", content: "What is 17 * 23?" });
  });

  it("a field of the agent's own the server does not know is left out from then on", async () => {
    const endpoint = state();
    const next = await stepDownBody({
      body: agentBody,
      sent: endpoint.current(),
      status: 400,
      errorBody: JSON.stringify({
        error: { message: "Unrecognized request argument supplied: top_k" },
      }),
      state: endpoint,
    });
    expect(next?.body).not.toHaveProperty("top_k");
    expect(mapBody(agentBody, endpoint.current())).not.toHaveProperty("top_k");
  });

  it("what the config fixes is not stepped down; a refusal of something else is passed on", async () => {
    const fixed = state({
      capabilities: {
        tools: "auto",
        structuredOutput: "auto",
        tokenLimit: "auto",
        temperature: "auto",
        seed: "send",
      },
    });
    const refusal = {
      error: {
        message: "Unsupported parameter: 'seed'",
        param: "seed",
        code: "unsupported_parameter",
      },
    };
    expect(
      await stepDownBody({
        body: agentBody,
        sent: fixed.current(),
        status: 400,
        errorBody: JSON.stringify(refusal),
        state: fixed,
      }),
    ).toBeUndefined();
    const tooLong = { error: { message: "This model's maximum context length is 8192 tokens." } };
    expect(
      await stepDownBody({
        body: agentBody,
        sent: fixed.current(),
        status: 400,
        errorBody: JSON.stringify(tooLong),
        state: fixed,
      }),
    ).toBeUndefined();
  });
});
