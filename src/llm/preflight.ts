import { APIConnectionError, APIError, type OpenAI } from "openai";
import { TransportError } from "../errors/transport-error.js";
import type { FailureDecision } from "./failure-classification.js";
import type { ChatRequest, ChatResponse } from "./types.js";

/** What the endpoint check found. */
export interface CheckOutcome {
  /** Model ids `GET /models` listed; undefined when the route is missing or failed. */
  listed?: string[];
}

/** The longest the check waits for `GET /models`. */
const listTimeoutMs = 10_000;

/** The check's one-token completion: cheap on every server, and it reaches the model. */
export const preflightRequest: ChatRequest = {
  messages: [{ role: "user", content: "Reply with the word OK." }],
  maxTokens: 1,
  purpose: "preflight",
};

/**
 * The preflight of one endpoint and model, before any rollout: `GET /models` (a wrong URL, a
 * refused key, and — when the model is not listed — a hint of what is served), then a
 * one-token completion (quota, an unknown model, routes without `/models` such as Azure's
 * classic deployment URLs; a capability the server refuses is stepped down here already).
 * Throws a TransportError whose message is one line: what failed, the server's whole reason
 * (key redacted) and the fix.
 */
export async function checkEndpoint(options: {
  client: OpenAI;
  model: string;
  baseUrl: string;
  classify(error: unknown): FailureDecision;
  complete(request: ChatRequest): Promise<ChatResponse>;
}): Promise<CheckOutcome> {
  const { model, baseUrl } = options;
  const where = `model '${model}' at ${baseUrl}`;
  let listed: string[] | undefined;
  let modelsRouteMissing = false;
  try {
    const page = await options.client.models.list({ timeout: listTimeoutMs, maxRetries: 0 });
    listed = Array.isArray(page.data)
      ? page.data.flatMap((entry) => (typeof entry?.id === "string" ? [entry.id] : []))
      : undefined;
  } catch (error) {
    if (error instanceof APIConnectionError) throw unreachable(where, error);
    if (!(error instanceof APIError) || typeof error.status !== "number") throw error;
    if (error.status === 401 || error.status === 403) throw failed(where, options.classify(error));
    modelsRouteMissing = error.status === 404 || error.status === 405;
    // Anything else (429, 5xx, odd bodies): the server is there; the completion tells the rest.
  }
  try {
    await options.complete(preflightRequest);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    if (error.details.status === 404) {
      const hint = modelsRouteMissing
        ? "neither GET /models nor POST /chat/completions exists there: model.baseUrl is probably wrong (it usually ends in /v1; Azure classic: …/openai/deployments/<name> with model.apiVersion)"
        : listed && !matches(listed, model)
          ? `the endpoint does not serve it (it lists ${listing(listed)}): check model.model`
          : "check model.model and model.baseUrl";
      const said = (error.details.cause as { message?: unknown } | undefined)?.message;
      const reason =
        typeof said === "string" && said ? ` (server said: ${said})` : `; ${error.message}`;
      throw new TransportError("llm", `endpoint check failed for ${where}: 404, ${hint}${reason}`, {
        ...error.details,
        retryable: false,
      });
    }
    throw new TransportError(
      "llm",
      `endpoint check failed for ${where}: ${error.message}`,
      error.details,
    );
  }
  return { listed };
}

/** Ollama lists `llama3:latest` for `llama3`; OpenRouter and others prefix a vendor. */
function matches(listed: string[], model: string): boolean {
  return listed.some(
    (id) => id === model || id === `${model}:latest` || id.split("/").at(-1) === model,
  );
}

function listing(listed: string[]): string {
  if (listed.length === 0) return "no models";
  const shown = listed.slice(0, 12).join(", ");
  return listed.length > 12 ? `${shown} and ${listed.length - 12} more` : shown;
}

function unreachable(where: string, error: APIConnectionError): TransportError {
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code =
    (cause?.cause as { code?: string } | undefined)?.code ?? (cause as { code?: string })?.code;
  const detail =
    code ??
    ([cause?.message, error.message].find((text) => text && text !== "fetch failed") ||
      "no answer");
  return new TransportError(
    "llm",
    `endpoint check failed for ${where}: cannot connect (${detail}); check model.baseUrl and that the server is running`,
    { retryable: false, cause: { code } },
  );
}

function failed(where: string, decision: FailureDecision): TransportError {
  const error =
    decision.action === "fail" || decision.action === "refused"
      ? decision.error
      : new TransportError("llm", "unexpected answer", { retryable: false });
  return new TransportError("llm", `endpoint check failed for ${where}: ${error.message}`, {
    ...error.details,
    retryable: false,
  });
}
