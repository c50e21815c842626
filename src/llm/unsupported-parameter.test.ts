import { describe, expect, it } from "vitest";
import { refusedParameter } from "./unsupported-parameter.js";

// Refusals in the words real servers use (collected from their public issue trackers).
const all = new Set([
  "model",
  "messages",
  "tools",
  "response_format",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "seed",
  "reasoning_effort",
  "top_k",
]);

describe("refusedParameter", () => {
  it.each([
    ["Ollama, no tool support", { message: "llama3 does not support tools" }, "tools"],
    [
      "Ollama, registry name",
      { message: "registry.ollama.ai/library/gemma3:4b does not support tools", type: "api_error" },
      "tools",
    ],
    [
      "vLLM without a tool parser",
      {
        message:
          '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      },
      "tools",
    ],
    [
      "OpenAI, JSON mode only",
      {
        message:
          "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
      },
      "response_format",
    ],
    [
      "DeepSeek-style JSON mode only",
      {
        message:
          "The parameter `response_format.type` specified in the request are not valid: invalid value: `json_schema`, supported values are: `json_object` and `text`.",
        param: "response_format.type",
      },
      "response_format",
    ],
    [
      "OpenAI reasoning model, max_tokens",
      {
        message:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        param: "max_tokens",
        code: "unsupported_parameter",
      },
      "max_tokens",
    ],
    [
      "OpenAI reasoning model, temperature",
      {
        message:
          "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
        param: "temperature",
        code: "unsupported_value",
      },
      "temperature",
    ],
    [
      "llama.cpp without --jinja (a 500)",
      { status: 500, message: "tools param requires --jinja flag", type: "server_error" },
      "tools",
    ],
    [
      "older llama.cpp (a 500)",
      { status: 500, message: "Unsupported param: tools", type: "server_error" },
      "tools",
    ],
    [
      "Azure, unknown argument",
      { message: "Unrecognized request argument supplied: reasoning_effort" },
      "reasoning_effort",
    ],
    [
      "vLLM / pydantic extra field",
      {
        message:
          "[{'type': 'extra_forbidden', 'loc': ('body', 'top_k'), 'msg': 'Extra inputs are not permitted', 'input': 20}]",
      },
      "top_k",
    ],
    [
      "Gemini's OpenAI-compatible endpoint (two fields at once)",
      {
        message:
          'Invalid JSON payload received. Unknown name "frequency_penalty": Cannot find field.\nInvalid JSON payload received. Unknown name "seed": Cannot find field.',
      },
      "seed",
    ],
    [
      "LiteLLM in front of Anthropic",
      {
        message:
          "litellm.UnsupportedParamsError: anthropic does not support parameters: ['seed'], for model=claude-3-7-sonnet-20250219. To drop these, set `litellm.drop_params=True`",
      },
      "seed",
    ],
    [
      "LiteLLM, a dict of parameters",
      {
        message:
          "litellm.UnsupportedParamsError: anthropic does not support parameters: {'seed': 12345}, for model=claude-3-5-sonnet-20241022.",
      },
      "seed",
    ],
    [
      "LiteLLM, a reasoning model's temperature",
      {
        message:
          "litellm.UnsupportedParamsError: gpt-5-nano doesn't support temperature=0.1 while reasoning is active. Only temperature=1 is supported",
      },
      "temperature",
    ],
    ["Anthropic", { message: "top_k: Extra inputs are not permitted" }, "top_k"],
  ])("%s", (_name, refusal, expected) => {
    expect(refusedParameter({ status: 400, ...refusal }, all)).toBe(expected);
  });

  it("reads nothing into refusals about something else", () => {
    for (const message of [
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
      "Invalid schema for response_format 'x': In context=(), 'additionalProperties' is required to be supplied and to be false.",
      "Missing required parameter: 'messages'.",
      "Invalid JSON payload received. Unknown name \"$schema\" at 'tools[0].function_declarations[0].parameters': Cannot find field.",
    ])
      expect(refusedParameter({ status: 400, message }, all), message).toBeUndefined();
    expect(
      refusedParameter({ status: 500, message: "llama3 does not support tools" }, all),
    ).toBeUndefined();
  });

  it("only names parameters that were sent (a suggested replacement is not a refusal)", () => {
    const message =
      "Unsupported parameter: 'max_completion_tokens' is not supported with this model. Use 'max_tokens' instead.";
    expect(refusedParameter({ status: 400, message }, new Set(["max_tokens"]))).toBeUndefined();
    expect(
      refusedParameter(
        { status: 400, message: "llama3 does not support tools" },
        new Set(["model"]),
      ),
    ).toBeUndefined();
  });
});
