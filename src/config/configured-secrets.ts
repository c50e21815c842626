import { defaultApiKeyEnv, type LoadedConfig } from "./config-schema.js";

/**
 * Environment variables that hold the GitHub token wherever Ecdysis runs: the conventional
 * names, and the Action's own `github-token` input (the runner passes inputs as `INPUT_*`).
 */
export const githubTokenVariables = ["GITHUB_TOKEN", "GH_TOKEN", "INPUT_GITHUB-TOKEN"] as const;

/**
 * The values of the secrets a run is configured with: the API key of every model section (read
 * from the variable its `apiKeyEnv` names — `$OPENAI_API_KEY` when it names none, as that key is
 * then sent —, whichever provider it uses) and the GitHub token.
 * They are forbidden in harness edits and scrubbed from every record, whatever their shape
 * (Azure's 32-hex keys look like nothing in particular). Unset variables are skipped.
 */
export function configuredSecrets(
  loaded: LoadedConfig,
  env: Record<string, string | undefined> = process.env,
): string[] {
  const { model, refiner, probe, judge } = loaded.config;
  const names = [
    ...[model, refiner, probe, judge].flatMap((section) =>
      section ? [section.apiKeyEnv ?? defaultApiKeyEnv] : [],
    ),
    ...githubTokenVariables,
  ];
  const values = names.map((name) => env[name]?.trim() ?? "").filter((value) => value !== "");
  return [...new Set(values)];
}
