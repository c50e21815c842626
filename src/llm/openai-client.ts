import OpenAI from "openai";

/** How to reach one endpoint: where, with which key in which header, and Azure's api-version. */
export interface EndpointAccess {
  baseUrl: string;
  /** Undefined: a keyless server; no auth header is sent at all. */
  apiKey?: string;
  /** Header that carries the key; by default `api-key` on Azure hosts, `Authorization: Bearer` elsewhere. */
  auth?: "bearer" | "api-key";
  /** Azure's `api-version` query parameter, added to every request. */
  apiVersion?: string;
  /** Extra headers (OpenRouter's `HTTP-Referer` and `X-Title`). */
  headers?: Record<string, string>;
  timeoutMs: number;
}

/** An SDK client for one endpoint, plus the raw body of each error response it saw. */
export interface EndpointClient {
  client: OpenAI;
  /** How the key is sent (`none` for a keyless server). */
  auth: "bearer" | "api-key" | "none";
  /**
   * The body of the error response an SDK error came from: the SDK keeps only `error.message`
   * of OpenAI-shaped bodies, and nothing of vLLM's `{message}` or of a proxy's HTML.
   */
  errorBody(headers: Headers | undefined): string | undefined;
}

const azureHost = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;

/** True for Azure OpenAI / AI Foundry hosts, whose keys go in the `api-key` header. */
export function isAzureHost(baseUrl: string): boolean {
  try {
    return azureHost.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * The `openai` SDK client for an endpoint, with its own retries off (the provider retries).
 * Without a key the `Authorization` header is omitted explicitly (the SDK would otherwise read
 * `$OPENAI_API_KEY` or refuse to start); with `api-key` auth the key goes in that header only.
 */
export function createEndpointClient(access: EndpointAccess): EndpointClient {
  const auth = access.apiKey
    ? (access.auth ?? (isAzureHost(access.baseUrl) ? "api-key" : "bearer"))
    : "none";
  const bodies = new WeakMap<Headers, string>();
  const keepErrorBodies = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (response.ok) return response;
    const text = await response.text().catch(() => "");
    const copy = new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    bodies.set(copy.headers, text);
    return copy;
  };
  const headers: Record<string, string | null> = { ...(access.headers ?? {}) };
  if (auth !== "bearer") headers.Authorization = null;
  if (auth === "api-key") headers["api-key"] = access.apiKey ?? "";
  const client = new OpenAI({
    baseURL: access.baseUrl,
    // A placeholder the SDK insists on; with auth `none`/`api-key` the header it would make is removed.
    apiKey: auth === "bearer" ? access.apiKey : "unused",
    defaultHeaders: headers,
    defaultQuery: access.apiVersion ? { "api-version": access.apiVersion } : undefined,
    maxRetries: 0,
    timeout: access.timeoutMs,
    logLevel: "off",
    fetch: keepErrorBodies,
  });
  return {
    client,
    auth,
    errorBody: (responseHeaders) => (responseHeaders ? bodies.get(responseHeaders) : undefined),
  };
}
