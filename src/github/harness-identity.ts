/** The status context the config gives when it names none (`gate.statusContext`'s default). */
export const defaultStatusContext = "ecdysis/heldout";

/**
 * How one harness shows itself on GitHub, the same in every run: two harnesses of one
 * repository (two configs, two workflows or a matrix) never share a status, a sticky comment, a
 * branch or a PR title, so neither overwrites the other's verdict.
 */
export interface HarnessIdentity {
  /** Short name from the harness folder; "" for the repository's own `harness/` (the one-harness layout of `ecdysis init`). */
  name: string;
  /** `ecdysis/heldout (agent)`; `ecdysis/heldout` for the unnamed harness; a custom context as configured. */
  statusContext: string;
  /** The hidden marker of the gate's sticky comment. */
  gateMarker: string;
  /** The engine's PR title with the name in it (unchanged for the unnamed harness). */
  title(engineTitle: string): string;
}

/**
 * The name of a harness folder (relative to the repository root): the folder without a trailing
 * `harness` segment — `agent/harness` → `agent`, `harnesses/support` → `harnesses/support`,
 * `harness` → "" — limited to characters that are safe in a status context and an HTML comment.
 */
export function harnessName(harnessPath: string): string {
  const path = harnessPath
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+|\/+$/g, "")
    .replace(/(^|\/)harness$/, "");
  return path
    .replace(/[^A-Za-z0-9._/-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-/]+|[-/]+$/g, "")
    .slice(0, 60);
}

/**
 * The identity of the harness at `harnessPath` whose config says `statusContext`. The default
 * context gets the name in parentheses; a context the config chose is used as written (its
 * author keeps it unique). The comment marker and the title always carry the name.
 */
export function harnessIdentity(options: {
  harnessPath: string;
  statusContext: string;
}): HarnessIdentity {
  const name = harnessName(options.harnessPath);
  const named = name !== "";
  return {
    name,
    statusContext:
      named && options.statusContext === defaultStatusContext
        ? `${defaultStatusContext} (${name})`
        : options.statusContext,
    gateMarker: named ? `<!-- ecdysis-gate ${name} -->` : "<!-- ecdysis-gate -->",
    title(engineTitle) {
      if (!named) return engineTitle;
      return /^Ecdysis:/.test(engineTitle)
        ? engineTitle.replace(/^Ecdysis:/, `Ecdysis (${name}):`)
        : `[${name}] ${engineTitle}`;
    },
  };
}
