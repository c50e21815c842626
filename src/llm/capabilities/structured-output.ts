import { textOf } from "../wire-messages.js";
import type { Capability, ChatBody } from "./capability.js";

type StructuredMode = "json_schema" | "json_object" | "prompt";

/** OpenAI (older models), DeepSeek-style JSON-mode-only servers, servers without response_format. */
const refusedWording =
  /not supported|unsupported|not valid|invalid (value|parameter)|unknown|unrecognized|not allowed|not permitted/i;

/** The instruction that carries a schema when decoding is not constrained by it. */
export function schemaInstruction(schema: unknown): string {
  return `## Reply format\nReply with a single JSON object and nothing else (no prose, no code fences). It must match this JSON Schema:\n${JSON.stringify(schema)}`;
}

/**
 * `response_format`: json_schema (strict when the schema is inside OpenAI's strict subset),
 * json_object, or nothing. The schema rides in the system prompt whenever decoding is not
 * constrained by it: json_object, prompt, and json_schema that is not strict. A server that takes
 * json_schema but ignores it (the reply is not JSON) is detected from the reply and stepped down.
 */
export const structuredOutput: Capability<StructuredMode> = {
  name: "structuredOutput",
  parameters: ["response_format"],
  initial: (config) => {
    const mode = config.capabilities.structuredOutput;
    return mode === "auto" ? "json_schema" : mode;
  },
  auto: (config) => config.capabilities.structuredOutput === "auto",
  refusedBy: (refusal) =>
    (/json_schema|json_object|response_format/i.test(refusal.message) ||
      !!refusal.param?.startsWith("response_format")) &&
    refusedWording.test(refusal.message),
  next: (current) =>
    current === "json_schema" ? "json_object" : current === "json_object" ? "prompt" : undefined,
  describe: (value) => value,
  map: mapStructured,
  observe: (reply, value, body) => {
    const format = body.response_format as LooseFormat | undefined;
    const strict = format?.type === "json_schema" && format.json_schema?.strict === true;
    if (value !== "json_schema" || !strict || reply.refused || reply.finishReason === "length")
      return undefined;
    const text = (reply.content ?? "").replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
    if (text === "" || isJsonObject(text)) return undefined;
    return "the reply to a strict json_schema request was not a JSON object: the server does not constrain decoding by response_format (Anthropic's compatibility layer ignores it); the schema rides in the prompt from now on";
  },
  fix: () => "set model.capabilities.structuredOutput to json_object or prompt (or auto)",
};

interface LooseFormat {
  type?: unknown;
  json_schema?: { schema?: unknown; strict?: unknown };
}

function mapStructured(body: ChatBody, value: StructuredMode): ChatBody {
  const format = body.response_format as LooseFormat | undefined;
  if (!format || typeof format !== "object") return body;
  const { response_format: _sent, ...rest } = body;
  if (format.type === "json_object") return value === "prompt" ? rest : body;
  if (format.type !== "json_schema") return body;
  const schema = format.json_schema?.schema;
  const constrained = value === "json_schema" && format.json_schema?.strict === true;
  const withSchema = (target: ChatBody) =>
    constrained || schema === undefined
      ? target
      : withSystemText(target, schemaInstruction(schema));
  if (value === "json_schema") return withSchema(body);
  if (value === "json_object")
    return withSchema({ ...rest, response_format: { type: "json_object" } });
  return withSchema(rest);
}

/** Appends text to the first system message of a wire body, or starts it with one. */
function withSystemText(body: ChatBody, text: string): ChatBody {
  const messages = Array.isArray(body.messages) ? [...body.messages] : [];
  const index = messages.findIndex((message) => (message as { role?: unknown })?.role === "system");
  if (index === -1) return { ...body, messages: [{ role: "system", content: text }, ...messages] };
  const content = textOf((messages[index] as { content?: unknown }).content).trim();
  messages[index] = { role: "system", content: content ? `${content}\n\n${text}` : text };
  return { ...body, messages };
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return !!value && typeof value === "object";
  } catch {
    return false;
  }
}
