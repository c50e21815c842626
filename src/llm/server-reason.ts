/** What a server said when it refused a request, read from its error body whatever its dialect. */
export interface ServerReason {
  /** The whole message (HTML reduced to its text); empty when the body said nothing. */
  message: string;
  param?: string;
  code?: string;
  type?: string;
}

type Loose = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;

/**
 * Reads an error body in the shapes OpenAI-compatible servers send: OpenAI, Azure, OpenRouter
 * and llama.cpp (`{error: {message, param, code, type}}`), Ollama's native API (`{error: "…"}`),
 * vLLM (`{message, type, code}`), FastAPI validation (`{detail: …}`), Gemini's OpenAI-compatible
 * endpoint (a JSON array of such objects), or plain text / HTML.
 */
export function serverReason(body: string): ServerReason {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { message: plainText(body) };
  }
  // Gemini answers `[{"error": {"code": 400, "message": …, "status": "INVALID_ARGUMENT"}}]`.
  if (Array.isArray(parsed) && parsed.length > 0) parsed = parsed[0];
  if (!parsed || typeof parsed !== "object") return { message: plainText(body) };
  const root = parsed as Loose;
  const error = root.error;
  if (typeof error === "string") return { message: error };
  const source = error && typeof error === "object" ? (error as Loose) : root;
  const detail = source.detail ?? root.detail;
  const message =
    text(source.message) ??
    (typeof detail === "string"
      ? detail
      : detail !== undefined
        ? JSON.stringify(detail)
        : undefined) ??
    JSON.stringify(parsed);
  return {
    message,
    param: text(source.param),
    code: text(source.code),
    type: text(source.type) ?? text(source.status),
  };
}

/** Text of a non-JSON body: scripts, styles and tags removed, whitespace collapsed. */
export function plainText(body: string): string {
  return body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
