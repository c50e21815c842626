import type { IncomingHttpHeaders } from "node:http";
import type { ChatBody } from "./openai-wire.js";
import type { Quirk } from "./world-schema.js";

/**
 * Switches that make the sim's endpoint answer the way real servers do when they cannot do
 * everything or are not set up right — same statuses, same bodies, same wording — so the client
 * is tested against the refusals it will meet, not against a tidy double.
 */
export interface SimEndpoint {
  /** 400 to any request offering `tools`, in Ollama's wording (`<model> does not support tools`). */
  rejectTools?: boolean;
  /** 400 to `response_format: json_schema`, as OpenAI answers for models with JSON mode only. */
  rejectJsonSchema?: boolean;
  /** A reasoning model (o-series, GPT-5): 400 to `max_tokens` and to a `temperature` other than 1. */
  reasoningModel?: boolean;
  /**
   * 400 to any request carrying `seed`, as Gemini's OpenAI-compatible endpoint answers: a JSON
   * array body, `Invalid JSON payload received. Unknown name "seed": Cannot find field.`
   */
  rejectSeed?: boolean;
  /** The key requests must carry (Bearer, or `api-key` on Azure routes); 401 otherwise. */
  apiKey?: string;
  /**
   * Azure OpenAI's routes instead of `/v1`: classic `/openai/deployments/<name>/…` (404 "Resource
   * not found" without a supported `api-version`) and `/openai/v1/…`; keys in `api-key`.
   */
  azure?: { apiVersions: string[] };
  /** Only these models are served (and listed); others get OpenAI's 404 `model_not_found`. */
  models?: string[];
  /** Every chat request gets OpenAI's 429 `insufficient_quota` (an account without credit). */
  noQuota?: boolean;
  /**
   * Body fields this server does not know at all (an older deployment, a minimal proxy): 400
   * `Unrecognized request argument supplied: <field>`, the wording of Azure and older OpenAI APIs.
   */
  rejectFields?: string[];
}

/** The switches a model config's sim quirks turn on. */
export function endpointFromQuirks(quirks: readonly Quirk[]): SimEndpoint {
  return {
    rejectTools: quirks.includes("rejects-tools"),
    rejectJsonSchema: quirks.includes("rejects-json-schema"),
    reasoningModel: quirks.includes("reasoning-model"),
    rejectSeed: quirks.includes("rejects-seed"),
  };
}

/** What a request asks for, by route. */
export type SimRoute =
  | { kind: "chat"; deployment?: string }
  /** The Responses API (`POST /v1/responses`), answered like a chat request. */
  | { kind: "responses" }
  | { kind: "models" }
  | { kind: "none"; status: number; body: unknown };

/** A refusal: status and body as the real service sends them. */
export interface SimRefusal {
  status: number;
  body: unknown;
}

const openAIError = (message: string, type: string, param: string | null, code: string | null) => ({
  error: { message, type, param, code },
});
const azureError = (code: string, message: string) => ({ error: { code, message } });

/** Maps method and URL to a route, the way the configured service lays its routes out. */
export function routeOf(endpoint: SimEndpoint, method: string, url: string): SimRoute {
  const parsed = new URL(url, "http://sim.invalid");
  const path = parsed.pathname.replace(/\/+$/, "");
  if (endpoint.azure) {
    const classic = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|models)$/.exec(path);
    const version = parsed.searchParams.get("api-version");
    if (classic) {
      if (!version || !endpoint.azure.apiVersions.includes(version) || classic[2] === "models")
        return { kind: "none", status: 404, body: azureError("404", "Resource not found") };
      if (method === "POST") return { kind: "chat", deployment: decodeURIComponent(classic[1]) };
    }
    if (method === "POST" && path === "/openai/v1/chat/completions") return { kind: "chat" };
    if (method === "POST" && path === "/openai/v1/responses") return { kind: "responses" };
    if (method === "GET" && path === "/openai/v1/models") return { kind: "models" };
    return { kind: "none", status: 404, body: azureError("404", "Resource not found") };
  }
  if (method === "GET" && path === "/v1/models") return { kind: "models" };
  if (method === "POST" && path === "/v1/chat/completions") return { kind: "chat" };
  if (method === "POST" && path === "/v1/responses") return { kind: "responses" };
  return {
    kind: "none",
    status: 404,
    body: openAIError(`Invalid URL (${method} ${path})`, "invalid_request_error", null, null),
  };
}

/** 401 when the endpoint wants a key and the request does not carry it where it should. */
export function refuseAuth(
  endpoint: SimEndpoint,
  headers: IncomingHttpHeaders,
): SimRefusal | undefined {
  if (!endpoint.apiKey) return undefined;
  if (endpoint.azure) {
    if (headers["api-key"] === endpoint.apiKey) return undefined;
    return {
      status: 401,
      body: azureError(
        "401",
        "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
      ),
    };
  }
  const given = /^Bearer (.+)$/.exec(String(headers.authorization ?? ""))?.[1];
  if (given === endpoint.apiKey) return undefined;
  const message = given
    ? `Incorrect API key provided: ${given.slice(0, 3)}***${given.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`
    : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
  return {
    status: 401,
    body: openAIError(message, "invalid_request_error", null, given ? "invalid_api_key" : null),
  };
}

/**
 * The refusal a real service of this kind gives a chat request, checked in the order the
 * service does: unknown model, quota, then each unsupported parameter.
 */
export function refuseChat(
  endpoint: SimEndpoint,
  body: ChatBody,
  model: string,
): SimRefusal | undefined {
  for (const check of [
    refuseAccount,
    refuseFields,
    refuseSeed,
    refuseReasoningParameters,
    refuseFeatures,
  ]) {
    const refusal = check(endpoint, body, model);
    if (refusal) return refusal;
  }
  return undefined;
}

type Check = (endpoint: SimEndpoint, body: ChatBody, model: string) => SimRefusal | undefined;

const refuseAccount: Check = (endpoint, _body, model) => {
  if (endpoint.models && !endpoint.models.includes(model)) {
    return refusal(
      404,
      `The model \`${model}\` does not exist or you do not have access to it.`,
      "invalid_request_error",
      null,
      "model_not_found",
    );
  }
  if (!endpoint.noQuota) return undefined;
  return refusal(
    429,
    "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
    "insufficient_quota",
    null,
    "insufficient_quota",
  );
};

const refuseFields: Check = (endpoint, body) => {
  const unknown = endpoint.rejectFields?.find(
    (field) => field in (body as Record<string, unknown>),
  );
  if (!unknown) return undefined;
  return refusal(
    400,
    `Unrecognized request argument supplied: ${unknown}`,
    "invalid_request_error",
  );
};

const refuseReasoningParameters: Check = (endpoint, body) => {
  if (!endpoint.reasoningModel) return undefined;
  if (body.max_tokens !== undefined) {
    return refusal(
      400,
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      "invalid_request_error",
      "max_tokens",
      "unsupported_parameter",
    );
  }
  if (body.temperature === undefined || body.temperature === 1) return undefined;
  return refusal(
    400,
    `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
    "invalid_request_error",
    "temperature",
    "unsupported_value",
  );
};

const refuseSeed: Check = (endpoint, body) => {
  if (!endpoint.rejectSeed || (body as { seed?: unknown }).seed === undefined) return undefined;
  const message = 'Invalid JSON payload received. Unknown name "seed": Cannot find field.';
  return {
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message,
          status: "INVALID_ARGUMENT",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: [{ description: message }],
            },
          ],
        },
      },
    ],
  };
};

const refuseFeatures: Check = (endpoint, body, model) => {
  // Ollama's OpenAI-compatible route, word for word.
  if (endpoint.rejectTools && (body.tools?.length ?? 0) > 0)
    return refusal(400, `${model} does not support tools`, "api_error");
  if (!endpoint.rejectJsonSchema || body.response_format?.type !== "json_schema") return undefined;
  return refusal(
    400,
    "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs",
    "invalid_request_error",
  );
};

function refusal(
  status: number,
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): SimRefusal {
  return { status, body: openAIError(message, type, param, code) };
}
