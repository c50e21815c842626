import type { EvolveConfig } from "../../../config/config-schema.js";

// GEPA's component selectors (src/gepa/strategies/component_selector.py): which of a candidate's
// named components one reflection rewrites. `round-robin` (GEPA's default) keeps a pointer per
// candidate and advances it each time the candidate is a parent; a child starts from the largest
// pointer of its parents (core/state.py, update_state_with_new_program). `all` rewrites every one.

/** GEPA's `module_selector` (`evolve.iterative.components`): one component per reflection in turn, or all. */
export type ComponentSelector = EvolveConfig["iterative"]["components"];

/** The components a reflection on this parent updates, and the parent's pointer afterwards. */
export function selectComponents(options: {
  selector: ComponentSelector;
  components: readonly string[];
  /** The parent's round-robin pointer (index into `components`). */
  pointer: number;
}): { components: string[]; pointer: number } {
  const { selector, components, pointer } = options;
  if (components.length === 0) throw new Error("component selector: the harness has no components");
  if (selector === "all") return { components: [...components], pointer };
  const at = pointer % components.length;
  return { components: [components[at]], pointer: (at + 1) % components.length };
}

/** A child's round-robin pointer: the largest of its parents' (after their advance). */
export function childPointer(parentPointers: readonly number[]): number {
  return parentPointers.length === 0 ? 0 : Math.max(...parentPointers);
}
