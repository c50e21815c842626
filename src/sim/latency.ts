import type { World } from "./world-schema.js";

/** Simulated latency of one call in ms: (fixed + per completion token) × scale. */
export function latencyMs(world: World, completionTokens: number, scaleOverride?: number): number {
  const scale = scaleOverride ?? world.latency.scale;
  return (world.latency.fixedMs + world.latency.perTokenMs * completionTokens) * scale;
}

/** Waits with a real timer (the sim's latency is wall-clock, like a real endpoint's). */
export function wait(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
