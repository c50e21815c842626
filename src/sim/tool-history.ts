import type { SimRequest } from "./sim-request.js";

/** One tool call the conversation shows together with its result. */
export interface ToolExchange {
  name: string;
  arguments: Record<string, unknown> | null;
  result: string;
  error: boolean;
  /** The result carried guidance past the error itself (`Hint: …`, "check the key and try again"). */
  hinted: boolean;
}

const guidance =
  /\b(hint|tip|try again|retry|call (it|\w+) again|check the|make sure|use only|must be|should be|expected format|exact name)\b/i;

/**
 * Whether a tool result guides a retry: words of guidance anywhere but in the bare error
 * message the tool itself wrote (`error: no entry named '…'`, `error: invalid character …`).
 */
function hintedResult(result: string): boolean {
  const bare =
    /^\s*error:\s*(no entry named '[^\n]*?'|invalid character '[^']*' in expression|[^\n(]*?)(?=\s*(\(|\n|$))/i.exec(
      result,
    );
  const rest = bare ? result.slice(bare.index + bare[0].length) : result;
  return guidance.test(rest);
}

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function exchange(name: string, argumentsText: string, result: string): ToolExchange {
  return {
    name,
    arguments: parseArguments(argumentsText),
    result,
    error: result.trimStart().toLowerCase().startsWith("error:"),
    hinted: hintedResult(result),
  };
}

/** Reads a tool result without its call: a registry entry names its key; a number is a calculator result. */
function orphanExchange(result: string): ToolExchange | null {
  if (/^error:.*expression/i.test(result.trim())) return exchange("calculator", "{}", result);
  const missing = /^error: no entry named '(.*)'/i.exec(result.trim());
  if (missing) return exchange("lookup", JSON.stringify({ key: missing[1] }), result);
  const heading = /^## (.+)$/m.exec(result);
  if (heading) return exchange("lookup", JSON.stringify({ key: heading[1].trim() }), result);
  if (Number.isFinite(Number(result.trim())) && result.trim() !== "")
    return exchange("calculator", "{}", result);
  return null;
}

/** Tool calls still visible in the request, paired with their results (native or text protocol). */
export function toolHistory(request: SimRequest): ToolExchange[] {
  const exchanges: ToolExchange[] = [];
  const { messages } = request;
  const callIds = new Set(
    messages.flatMap((message) => (message.toolCalls ?? []).map((call) => call.id)),
  );
  messages.forEach((message, index) => {
    // A result whose call was dropped by context overflow is still read, as a model would.
    if (message.role === "tool" && !callIds.has(message.toolCallId ?? "")) {
      const orphan = orphanExchange(message.content);
      if (orphan) exchanges.push(orphan);
    }
    if (message.role !== "assistant") return;
    for (const call of message.toolCalls ?? []) {
      const result = messages.find(
        (other) => other.role === "tool" && other.toolCallId === call.id,
      );
      if (result) exchanges.push(exchange(call.name, call.arguments, result.content));
    }
    const text = /^CALL (\w+) (.*)$/m.exec(message.content);
    if (!text) return;
    const reply = messages[index + 1];
    const prefix = `RESULT ${text[1]}: `;
    if (reply?.role === "user" && reply.content.startsWith(prefix)) {
      exchanges.push(exchange(text[1], text[2], reply.content.slice(prefix.length)));
    }
  });
  return exchanges;
}
