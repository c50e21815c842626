import type { ModelConfig } from "../config/config-schema.js";
import {
  autoSettings,
  type Downgrade,
  describeSetting,
  initialSettings,
  nextSettings,
  settingOf,
  type WireParameter,
  type WireSettings,
} from "./capabilities.js";
import type { CapabilityMemory } from "./capability-memory.js";

/** What the provider should do after the server refused a parameter. */
export type DowngradeOutcome =
  /** Settings changed (now, or already by a concurrent call): send again with `current()`. */
  | { kind: "retry"; downgrade?: Downgrade }
  /** The setting is fixed by the config, or there is no step left: fail with the server's reason. */
  | { kind: "fixed"; setting?: keyof WireSettings };

/**
 * The wire settings of one model on one endpoint, shared by every provider that talks to it
 * (agent, refiner, probe, judge) so a lesson learned by one call holds for all. `auto` settings
 * step down once per refusal; the steps are kept in the memory (the cache) for later runs.
 */
export class CapabilityState {
  private settings: WireSettings;
  private readonly auto: Record<keyof WireSettings, boolean>;
  private readonly steps: Downgrade[] = [];
  private readonly refusedTokenLimits = new Set<string>();

  constructor(
    private readonly options: {
      config: ModelConfig;
      /** Identity of the endpoint in reports and in the memory (base URL, or the sim's world). */
      endpoint: string;
      memory?: CapabilityMemory;
    },
  ) {
    this.auto = autoSettings(options.config);
    this.settings = initialSettings(options.config);
    for (const remembered of options.memory?.downgradesOf(options.endpoint, options.config.model) ??
      []) {
      const setting = settingOf(remembered.parameter);
      if (!setting || !this.auto[setting]) continue;
      const next = nextSettings(this.settings, remembered.parameter, this.refusedTokenLimits);
      if (!next) continue;
      this.refuse(remembered.parameter);
      this.settings = next;
      this.steps.push({ ...remembered, remembered: true });
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
   * The server refused `parameter` on a request sent with `sent`. Steps the setting down when it
   * is `auto` and still what was sent (a concurrent call may have stepped it down already).
   */
  async refused(
    parameter: WireParameter,
    sent: WireSettings,
    reason: string,
  ): Promise<DowngradeOutcome> {
    const setting = settingOf(parameter);
    if (!setting) return { kind: "fixed" };
    if (this.settings[setting] !== sent[setting]) return { kind: "retry" };
    if (!this.auto[setting]) return { kind: "fixed", setting };
    const next = nextSettings(this.settings, parameter, this.refusedTokenLimits);
    if (!next) return { kind: "fixed", setting };
    this.refuse(parameter);
    const downgrade: Downgrade = {
      endpoint: this.options.endpoint,
      model: this.options.config.model,
      parameter,
      from: describeSetting(this.settings, setting),
      to: describeSetting(next, setting),
      reason,
      remembered: false,
    };
    this.settings = next;
    this.steps.push(downgrade);
    await this.options.memory?.record(downgrade);
    return { kind: "retry", downgrade };
  }

  private refuse(parameter: WireParameter): void {
    if (parameter === "max_tokens" || parameter === "max_completion_tokens")
      this.refusedTokenLimits.add(parameter);
  }
}
