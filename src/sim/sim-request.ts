/** A chat message as the sim reads it (normalised from the OpenAI wire format). */
export interface SimMessage {
  role: "system" | "user" | "assistant" | "tool" | "developer";
  content: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
}

/** Everything the sim may read from a request (docs/sim-protocol.md). */
export interface SimRequest {
  model: string;
  messages: SimMessage[];
  /** Names of natively offered function tools. */
  tools: string[];
  seed: number;
  temperature: number;
  /** `response_format.json_schema.name` when structured output is asked for. */
  schemaName?: string;
}

/** A tool call the sim decides to make. */
export interface SimToolCall {
  name: string;
  arguments: string;
}

/** The sim's reply plus what it knows about why (for the ground-truth log only). */
export interface SimReply {
  content: string | null;
  toolCalls: SimToolCall[];
  /** Deficiencies that shaped this reply (ground truth). */
  hits: string[];
  /** Statement the reply is about, when one was recognised (keys the ground-truth log). */
  statement?: string;
}
