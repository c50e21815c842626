import type { WireParameter } from "./capabilities.js";

/** What a refusal says, as read from the server's error body. */
export interface Refusal {
  status: number;
  /** The server's message (OpenAI's `error.message`, Ollama's `error`, vLLM's `message`). */
  message: string;
  /** OpenAI's `error.param`, when given. */
  param?: string | null;
  /** OpenAI's `error.code`, when given (`unsupported_parameter`, `unsupported_value`). */
  code?: string | null;
}

const knownParameters: readonly WireParameter[] = [
  "tools",
  "response_format",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "seed",
  "reasoning_effort",
];

/**
 * Which parameter of the request a 400/422 names as unsupported, in the wording real servers
 * use, or undefined when the refusal is about something else (a prompt that is too long, a bad
 * message). Only parameters that were sent count, so "use 'max_completion_tokens' instead" is not
 * taken for a refusal of `max_completion_tokens`. Returns the name of an `extraBody` field too.
 */
export function refusedParameter(
  refusal: Refusal,
  sent: ReadonlySet<string>,
): WireParameter | string | undefined {
  const message = refusal.message;
  // llama.cpp's server refuses with a 500 ("tools param requires --jinja flag", older builds
  // "Unsupported param: tools"); anything else at 5xx is a server failure, retried.
  const llamaCpp = refusal.status === 500 && /requires --jinja|Unsupported param: /i.test(message);
  if (refusal.status !== 400 && refusal.status !== 422 && !llamaCpp) return undefined;
  const isSent = (name: string | undefined | null): name is string => !!name && sent.has(name);
  // Ollama: "llama3 does not support tools"; vLLM without a tool parser; LM Studio and others.
  if (
    sent.has("tools") &&
    (/does not support tools/i.test(message) ||
      /--enable-auto-tool-choice|tools param requires --jinja|Unsupported param: tools|tool[ _-]?(call|choice|use)s? (is |are )?not supported|tools? (is |are )?not supported|does not support (function|tool) call/i.test(
        message,
      ))
  )
    return "tools";
  // OpenAI (older models), DeepSeek-style JSON-mode-only servers, servers without response_format.
  if (
    sent.has("response_format") &&
    (/json_schema|json_object|response_format/i.test(message) ||
      refusal.param?.startsWith("response_format")) &&
    /not supported|unsupported|not valid|invalid (value|parameter)|unknown|unrecognized|not allowed|not permitted/i.test(
      message,
    )
  )
    return "response_format";
  // OpenAI's structured refusals name the parameter in `param`.
  const param = refusal.param?.split(".")[0];
  if (
    isSent(param) &&
    /^unsupported_(parameter|value)$|^invalid_request_body$/.test(refusal.code ?? "")
  )
    return param;
  for (const pattern of [
    /Unsupported (?:parameter|value): '([\w.]+)'/i,
    /Unsupported param: '?([\w.]+)'?/i,
    /Unrecognized request arguments? supplied: ([\w.]+)/i,
    /Unknown (?:parameter|field|argument):? '?([\w.]+)'?/i,
    /'loc': \('body', '([\w.]+)'\)[^\]]*Extra inputs are not permitted/i,
    /"loc":\s*\["body",\s*"([\w.]+)"\][^\]]*Extra inputs are not permitted/i,
    /'([\w.]+)' is not (?:supported|permitted|allowed)/i,
    /\b([a-z_]+) is not supported (?:with|by|for) this model/i,
  ]) {
    const named = pattern.exec(message)?.[1]?.split(".")[0];
    if (isSent(named)) return named;
  }
  return undefined;
}

/** True for the parameters the capability ladders know (others are `extraBody` fields). */
export function isWireParameter(name: string): name is WireParameter {
  return (knownParameters as readonly string[]).includes(name);
}
