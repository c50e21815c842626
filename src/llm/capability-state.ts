import type { ModelConfig } from "../config/config-schema.js";
import {
  autoSettings,
  type CapabilityName,
  capabilityOf,
  type Downgrade,
  describeSetting,
  initialSettings,
  nextSettings,
  type WireParameter,
  type WireSettings,
} from "./capabilities.js";
import type { CapabilityMemory } from "./capability-memory.js";

/** What the provider should do after the server refused a parameter. */
export type DowngradeOutcome =
  /** Settings changed (now, or already by a concurrent call): send again with `current()`. */
  | { kind: "retry"; downgrade?: Downgrade }
  /** The setting is fixed by the config, or there is no step left: fail with the server's reason. */
  | { kind: "fixed"; setting?: CapabilityName };

/**
 * The wire settings of one model on one endpoint, shared by every provider that talks to it
 * (agent, refiner, probe, judge; the gateway's agent calls) so a lesson learned by one call holds
 * for all. `auto` capabilities step down once per refusal; any other body field a server refuses
 * is left out from then on, unless the config asked for it (`extraBody`). Steps are kept in the
 * memory (the cache) for later runs.
 */
export class CapabilityState {
  private settings: WireSettings;
  private readonly auto: Record<CapabilityName, boolean>;
  private readonly fixedFields: ReadonlySet<string>;
  private readonly steps: Downgrade[] = [];
  private readonly refusedParameters = new Set<string>();

  constructor(
    private readonly options: {
      config: ModelConfig;
      /** Identity of the endpoint in reports and in the memory (base URL, or the sim's world). */
      endpoint: string;
      memory?: CapabilityMemory;
    },
  ) {
    this.auto = autoSettings(options.config);
    this.fixedFields = new Set(Object.keys(options.config.extraBody ?? {}));
    this.settings = initialSettings(options.config);
    const remembered = options.memory?.downgradesOf(options.endpoint, options.config.model) ?? [];
    for (const step of remembered) {
      const next = this.stepFor(step.parameter, this.settings);
      if (!next) continue;
      this.refusedParameters.add(step.parameter);
      this.settings = next;
      this.steps.push({ ...step, remembered: true });
    }
  }

  /** The settings to send with now. */
  current(): WireSettings {
    return { ...this.settings };
  }

  /** Every step taken (remembered ones first), in order. */
  downgrades(): Downgrade[] {
    return this.steps.map((step) => ({ ...step }));
  }

  /**
   * The server refused `parameter` on a request sent with `sent`. Steps down when the capability
   * is `auto` (or the field is not the config's) and still what was sent: a concurrent call may
   * have stepped it down already.
   */
  async refused(
    parameter: WireParameter,
    sent: WireSettings,
    reason: string,
  ): Promise<DowngradeOutcome> {
    const name = capabilityOf(parameter);
    if (name && this.settings[name] !== sent[name]) return { kind: "retry" };
    if (!name && (this.settings.omitted ?? []).includes(parameter)) return { kind: "retry" };
    const next = this.stepFor(parameter, this.settings);
    if (!next) return { kind: "fixed", setting: name };
    return { kind: "retry", downgrade: await this.take(parameter, next, reason) };
  }

  /** The settings after `parameter` is refused under `current`; undefined when none is allowed. */
  private stepFor(parameter: WireParameter, current: WireSettings): WireSettings | undefined {
    const name = capabilityOf(parameter);
    if (name) {
      if (!this.auto[name]) return undefined;
      return nextSettings(current, parameter, this.refusedParameters);
    }
    const omitted = current.omitted ?? [];
    if (this.fixedFields.has(parameter) || omitted.includes(parameter)) return undefined;
    return { ...current, omitted: [...omitted, parameter] };
  }

  private async take(
    parameter: WireParameter,
    next: WireSettings,
    reason: string,
  ): Promise<Downgrade> {
    const name = capabilityOf(parameter);
    const describe = (settings: WireSettings) =>
      name
        ? describeSetting(settings, name)
        : (settings.omitted ?? []).includes(parameter)
          ? "omitted"
          : "sent";
    const downgrade: Downgrade = {
      endpoint: this.options.endpoint,
      model: this.options.config.model,
      parameter,
      from: describe(this.settings),
      to: describe(next),
      reason,
      remembered: false,
    };
    this.refusedParameters.add(parameter);
    this.settings = next;
    this.steps.push(downgrade);
    await this.options.memory?.record(downgrade);
    return downgrade;
  }
}
