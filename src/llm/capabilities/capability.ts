import type { ModelConfig } from "../../config/config-schema.js";

/** A chat-completions request body as it goes on the wire (ours, or an agent's through a gateway). */
export type ChatBody = Record<string, unknown>;

/** What a refusal says, as read from the server's error body (`server-reason.ts`). */
export interface Refusal {
  status: number;
  /** The server's message (OpenAI's `error.message`, Ollama's `error`, vLLM's `message`). */
  message: string;
  /** OpenAI's `error.param`, when given. */
  param?: string | null;
  /** OpenAI's `error.code`, when given (`unsupported_parameter`, `unsupported_value`). */
  code?: string | null;
}

/** A completion as the wire has it, read loosely (servers omit fields). */
export interface WireReply {
  /** `message.content` as sent (a string, or null). */
  content: string | null;
  /** How many native tool calls the reply carried. */
  toolCalls: number;
  finishReason: string | undefined;
  /** The message carried a `refusal`. */
  refused: boolean;
}

/**
 * One endpoint capability — something a server may or may not take — as one record: how the
 * config sets it, how a refusal of it is recognised, how it steps down, how each of its values
 * shapes a request body, and what to change when the config fixes it. `V` is its wire setting
 * (`native` | `text`, sent or not, …). Steps are remembered by the parameter a server refused
 * (`CapabilityMemory`), so `parameters` is also its memory key.
 */
export interface Capability<V extends string | boolean> {
  /** The key under `model.capabilities` (and in `WireSettings`). */
  readonly name: string;
  /** Body fields this capability writes, as the wire names them (what a refusal names). */
  readonly parameters: readonly string[];
  /** The value a model starts with: the configured one, `auto` resolved by family and endpoint. */
  initial(config: ModelConfig): V;
  /** Whether the config leaves this capability to the ladder (a fixed one never steps down). */
  auto(config: ModelConfig): boolean;
  /**
   * Detection beyond a server naming the parameter (which `refusedParameter` reads for every
   * capability): wording that says "this server cannot do X" without naming the field.
   */
  refusedBy?(refusal: Refusal): boolean;
  /** The value after `parameter` was refused under `current`; undefined when there is no step left. */
  next(current: V, parameter: string, tried: ReadonlySet<string>): V | undefined;
  /** A value in words (`native`, `json_schema`, `sent`, `omitted`). */
  describe(value: V): string;
  /** The request body as this value lets it go out (a new object; the input is not changed). */
  map(body: ChatBody, value: V): ChatBody;
  /**
   * Detection from a reply rather than a refusal: what the reply showed when the server does not
   * do what `value` asks (tool calls written as text, a json_schema it ignored), in words;
   * undefined when it did. The step taken is the ladder's next one, as if `parameters[0]` had
   * been refused, so the memory replays it like any other.
   */
  observe?(reply: WireReply, value: V, body: ChatBody): string | undefined;
  /** What to change in the config when a fixed value is refused (`parameter`: the one refused). */
  fix(parameter: string): string;
}

/** A sent-or-omitted capability of one body field (`temperature`, `seed`, `reasoning_effort`). */
export function optionalField(options: {
  name: string;
  field: string;
  initial(config: ModelConfig): boolean;
  auto(config: ModelConfig): boolean;
  fix: string;
}): Capability<boolean> {
  return {
    name: options.name,
    parameters: [options.field],
    initial: options.initial,
    auto: options.auto,
    next: (current) => (current ? false : undefined),
    describe: (value) => (value ? "sent" : "omitted"),
    map: (body, value) => {
      if (value || !(options.field in body)) return body;
      const { [options.field]: _omitted, ...rest } = body;
      return rest;
    },
    fix: () => options.fix,
  };
}
