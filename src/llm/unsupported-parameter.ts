import type { Capability } from "./capabilities/capability.js";
import { capabilityRecords, type Refusal, type WireParameter } from "./capabilities.js";

export type { Refusal } from "./capabilities.js";

/**
 * Patterns that name the refused field, in the words and error shapes real servers use: OpenAI
 * and Azure (`Unsupported parameter: 'x'`, `Unrecognized request argument supplied: x`), Gemini
 * (`Unknown name "x": Cannot find field.`), LiteLLM (`does not support parameters: ['x']`,
 * `doesn't support x=…`), Anthropic and pydantic servers (`x: Extra inputs are not permitted`,
 * vLLM's `'loc': ('body', 'x')`), llama.cpp (`Unsupported param: x`), and others.
 */
const namingPatterns = [
  /Unsupported (?:parameter|value): '([\w.]+)'/i,
  /Unsupported param: '?([\w.]+)'?/i,
  /Unrecognized request arguments? supplied: ([\w.]+)/i,
  /Unknown name "([\w.]+)"(?!\s+at\b)/i,
  /Unknown (?:parameter|field|argument):? '?([\w.]+)'?/i,
  /does not support parameters?: [[{(]\s*['"]([\w.]+)['"]/i,
  /doesn'?t support ([a-z_]+)=/i,
  /'loc': \('body', '([\w.]+)'\)[^\]]*Extra inputs are not permitted/i,
  /"loc":\s*\["body",\s*"([\w.]+)"\][^\]]*Extra inputs are not permitted/i,
  /(?:^|[\s"'`])([a-z_][\w.]*): Extra inputs are not permitted/i,
  /'([\w.]+)' is not (?:supported|permitted|allowed)/i,
  /\b([a-z_]+) is not supported (?:with|by|for) this model/i,
];

/**
 * Which parameter of the request a 400/422 names as unsupported, in the wording real servers
 * use, or undefined when the refusal is about something else (a prompt that is too long, a bad
 * message). Only parameters that were sent count, so "use 'max_completion_tokens' instead" is not
 * taken for a refusal of `max_completion_tokens`. Returns the name of any other body field too
 * (an `extraBody` field, or one an agent sent through the gateway).
 */
export function refusedParameter(
  refusal: Refusal,
  sent: ReadonlySet<string>,
): WireParameter | undefined {
  const message = refusal.message;
  // llama.cpp's server refuses with a 500 ("tools param requires --jinja flag", older builds
  // "Unsupported param: tools"); LiteLLM sometimes with a 500 naming the parameters; anything
  // else at 5xx is a server failure, retried.
  const refusing500 =
    refusal.status === 500 &&
    /requires --jinja|Unsupported param: |does not support parameters?: /i.test(message);
  if (refusal.status !== 400 && refusal.status !== 422 && !refusing500) return undefined;
  for (const record of Object.values(capabilityRecords) as Capability<string | boolean>[]) {
    const named = record.parameters.find((parameter) => sent.has(parameter));
    if (named && record.refusedBy?.(refusal)) return named;
  }
  // OpenAI's structured refusals name the parameter in `param`.
  const param = refusal.param?.split(".")[0];
  if (
    param &&
    sent.has(param) &&
    /^unsupported_(parameter|value)$|^invalid_request_body$/.test(refusal.code ?? "")
  )
    return param;
  for (const pattern of namingPatterns) {
    for (const match of message.matchAll(new RegExp(pattern, `${pattern.flags}g`))) {
      const named = match[1]?.split(".")[0];
      if (named && sent.has(named)) return named;
    }
  }
  return undefined;
}
