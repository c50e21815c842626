import { z } from "zod";

// The `model` section of ecdysis.yml (also `refiner`, `probe`, `judge`): one endpoint and model,
// its limits, prices and capabilities.

/** Price table entry, USD per million tokens. */
export const priceSchema = z
  .object({
    promptPerMTok: z.number().min(0).default(0),
    completionPerMTok: z.number().min(0).default(0),
  })
  .strict();

/**
 * How a model endpoint is spoken to. `auto` (the default of each) starts with the richest form
 * (or what the model family is known to need) and steps down once, for the rest of the run and
 * in the cache, when the server answers 400 naming that parameter as unsupported.
 */
export const capabilitiesSchema = z
  .object({
    /** Tools offered natively (`tools`), or listed in the system prompt and called by `CALL` lines. */
    tools: z.enum(["auto", "native", "text"]).default("auto"),
    /** `response_format` json_schema (strict), json_object, or the schema in the prompt only. */
    structuredOutput: z.enum(["auto", "json_schema", "json_object", "prompt"]).default("auto"),
    /** Which token-limit parameter carries `maxTokens`. */
    tokenLimit: z.enum(["auto", "max_tokens", "max_completion_tokens", "none"]).default("auto"),
    /** Whether `temperature` is sent (reasoning models accept only their default). */
    temperature: z.enum(["auto", "send", "omit"]).default("auto"),
    /** Whether the sample's `seed` is sent (Gemini's OpenAI-compatible endpoint refuses it). */
    seed: z.enum(["auto", "send", "omit"]).default("auto"),
  })
  .strict();
export type Capabilities = z.infer<typeof capabilitiesSchema>;

/** Body fields Ecdysis sets itself; `extraBody` may not override them. */
export const reservedBodyFields: Record<string, string> = {
  model: "model.model",
  messages: "the harness",
  tools: "model.capabilities.tools",
  tool_choice: "model.capabilities.tools",
  response_format: "model.capabilities.structuredOutput",
  max_tokens: "model.maxTokens and model.capabilities.tokenLimit",
  max_completion_tokens: "model.maxTokens and model.capabilities.tokenLimit",
  temperature: "model.temperature and model.capabilities.temperature",
  reasoning_effort: "model.reasoningEffort",
  seed: "the sample index and model.capabilities.seed",
  stream: "nothing (Ecdysis does not stream)",
  n: "nothing (one choice per call)",
};

/** Sim-only server behaviours (src/sim/README.md); src/sim's `quirkSchema` is built from this list. */
export const modelQuirks = [
  "fenced-json",
  "prose-json",
  "ignore-response-format",
  "no-native-tools",
  "rejects-tools",
  "rejects-json-schema",
  "reasoning-model",
  "rejects-seed",
] as const;

/** The variable an endpoint's key is read from when `apiKeyEnv` is not set (if it is set at all). */
export const defaultApiKeyEnv = "OPENAI_API_KEY";

/**
 * A model endpoint. `provider: sim` starts the embedded simulated model (world file required);
 * `provider: openai` talks to any OpenAI-compatible base URL (OpenAI, Azure, OpenRouter,
 * Ollama, vLLM, llama.cpp's server…; docs/endpoints.md).
 */
export const modelConfigSchema = z
  .object({
    provider: z.enum(["sim", "openai"]).default("openai"),
    baseUrl: z.string().url().optional(),
    /**
     * Name of the environment variable holding the key (never the key itself). When set, the
     * variable must be set. When left out, `$OPENAI_API_KEY` is sent if it is set, and no key
     * (no auth header) otherwise, for keyless local servers.
     */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional(),
    /** Header that carries the key: `Authorization: Bearer` or Azure's `api-key` (the default on Azure hosts). */
    auth: z.enum(["bearer", "api-key"]).optional(),
    /** Azure OpenAI's `api-version` query parameter (classic deployment URLs need it). */
    apiVersion: z.string().min(1).optional(),
    /** Extra request headers (OpenRouter's `HTTP-Referer`, `X-Title`); never a key. */
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]+$/), z.string())
      .refine(
        (headers) => !Object.keys(headers).some((name) => /^(authorization|api-key)$/i.test(name)),
        { message: "keys do not belong in headers: name their variable in apiKeyEnv" },
      )
      .optional(),
    model: z.string().min(1),
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.number().int().positive().default(1024),
    capabilities: capabilitiesSchema.default(capabilitiesSchema.parse({})),
    /** `reasoning_effort` for reasoning models (o-series, GPT-5); not sent when unset. */
    reasoningEffort: z.enum(["none", "minimal", "low", "medium", "high"]).optional(),
    /** Free fields added to every request body (e.g. vLLM's `top_k`, Ollama's `num_ctx`). */
    extraBody: z
      .record(z.string(), z.unknown())
      .superRefine((body, context) => {
        for (const field of Object.keys(body)) {
          const owner = reservedBodyFields[field];
          if (owner)
            context.addIssue({
              code: "custom",
              path: [field],
              message: `'${field}' is set by Ecdysis (from ${owner}); it cannot be overridden in extraBody`,
            });
        }
      })
      .optional(),
    /** World file for `provider: sim`, relative to the config file. */
    world: z.string().optional(),
    /** Server behaviours to emulate (sim only): see src/sim/README.md. */
    quirks: z.array(z.enum(modelQuirks)).default([]),
    price: priceSchema.default({ promptPerMTok: 0, completionPerMTok: 0 }),
    /**
     * Client-side limits, shared by every role (agent, refiner, probe, judge) on the same
     * endpoint and key; where their configs differ, the strictest applies.
     */
    requestsPerMinute: z.number().positive().optional(),
    tokensPerMinute: z.number().int().positive().optional(),
    maxConcurrency: z.number().int().positive().default(8),
    timeoutMs: z.number().int().positive().default(120_000),
    maxRetries: z.number().int().min(0).max(10).default(4),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.provider === "sim" && !value.world) {
      context.addIssue({
        code: "custom",
        path: ["world"],
        message: "'world' is required when provider is 'sim'",
      });
    }
    if (value.provider === "openai" && !value.baseUrl) {
      context.addIssue({
        code: "custom",
        path: ["baseUrl"],
        message: "'baseUrl' is required when provider is 'openai'",
      });
    }
  });
export type ModelConfig = z.infer<typeof modelConfigSchema>;
