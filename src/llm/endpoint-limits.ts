import { createHash } from "node:crypto";
import type { Clock } from "./clock.js";
import { RateLimiter } from "./rate-limiter.js";
import { Semaphore } from "./semaphore.js";
import { TokenRateLimiter } from "./token-rate-limiter.js";

/** The client-side limits of one endpoint and key: requests in flight, per minute, tokens per minute. */
export interface EndpointLimits {
  concurrency: Semaphore;
  requests?: RateLimiter;
  tokens?: TokenRateLimiter;
}

/** The limit settings of one model config. */
export interface LimitSettings {
  maxConcurrency: number;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/**
 * Identity of an endpoint and key for limiting: the base URL and a hash of the key (the key
 * itself is never kept). Two roles with the same pair share one budget at the server.
 */
export function endpointKey(baseUrl: string, apiKey: string | undefined): string {
  const key = apiKey ? createHash("sha256").update(apiKey).digest("hex").slice(0, 16) : "none";
  return `${baseUrl.replace(/\/+$/, "")} ${key}`;
}

/**
 * One set of limits per endpoint and key, shared by every provider that uses the pair (agent,
 * refiner, probe, judge), so a configured limit holds for their sum. Where the configs of those
 * roles differ, the strictest value of each limit applies.
 */
export class EndpointLimitRegistry {
  private readonly settings = new Map<string, LimitSettings>();
  private readonly limits = new Map<string, EndpointLimits>();

  constructor(private readonly clock: Clock) {}

  /** Registers a role's settings for `key`; call for every role before the first `limitsFor`. */
  declare(key: string, settings: LimitSettings): void {
    if (this.limits.has(key)) throw new Error(`limits for ${key} are already in use`);
    const known = this.settings.get(key);
    this.settings.set(key, known ? strictest(known, settings) : settings);
  }

  /** The shared limits of `key` (created on first use from the declared settings). */
  limitsFor(key: string): EndpointLimits {
    const existing = this.limits.get(key);
    if (existing) return existing;
    const settings = this.settings.get(key);
    if (!settings) throw new Error(`no limits declared for ${key}`);
    const created: EndpointLimits = {
      concurrency: new Semaphore(settings.maxConcurrency),
      requests: settings.requestsPerMinute
        ? new RateLimiter(settings.requestsPerMinute, this.clock)
        : undefined,
      tokens: settings.tokensPerMinute
        ? new TokenRateLimiter(settings.tokensPerMinute, this.clock)
        : undefined,
    };
    this.limits.set(key, created);
    return created;
  }
}

function strictest(a: LimitSettings, b: LimitSettings): LimitSettings {
  const min = (x?: number, y?: number) =>
    x === undefined ? y : y === undefined ? x : Math.min(x, y);
  return {
    maxConcurrency: Math.min(a.maxConcurrency, b.maxConcurrency),
    requestsPerMinute: min(a.requestsPerMinute, b.requestsPerMinute),
    tokensPerMinute: min(a.tokensPerMinute, b.tokensPerMinute),
  };
}

/** Limits of a provider that shares them with nobody (from its own config). */
export function ownLimits(settings: LimitSettings, clock: Clock): EndpointLimits {
  const registry = new EndpointLimitRegistry(clock);
  registry.declare("own", settings);
  return registry.limitsFor("own");
}
