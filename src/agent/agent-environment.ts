/** Where a command harness's agent reaches its model, as its environment tells it. */
export interface AgentModelEndpoint {
  /** The model name (`ECDYSIS_MODEL`). */
  name: string;
  /** The base URL the agent calls (`OPENAI_BASE_URL`, `ECDYSIS_BASE_URL`); none: not set. */
  baseUrl?: string;
  /** The variable the agent reads its key from: the config's `model.apiKeyEnv`, else `OPENAI_API_KEY`. */
  keyVariable: string;
  /**
   * The key's value when Ecdysis gives one of its own (a model gateway's run-scoped token).
   * Absent: the value of `keyFrom` in the parent environment, when set.
   */
  key?: string;
  /** The parent's variable the key is read from when `key` is absent (default `keyVariable`). */
  keyFrom?: string;
}

/** What `agentEnvironment` builds an agent's environment from. */
export interface AgentEnvironmentInput {
  /** The environment Ecdysis runs in: only the names listed here are ever read from it. */
  parent: NodeJS.ProcessEnv;
  model: AgentModelEndpoint;
  /** The candidate's folder (`ECDYSIS_HARNESS_DIR`). */
  harnessDir: string;
  /** The config's folder (`ECDYSIS_PROJECT_ROOT`): a path; in the sandbox nothing of it is mounted but what `harness.sandbox.read` names. */
  projectRoot: string;
  /** The agent's private home and temporary folders (`HOME`; `TMPDIR`, `TMP`, `TEMP`). */
  home: string;
  tmpdir: string;
  /** `harness.env`: further variables copied from `parent` when set there. */
  pass?: readonly string[];
}

const fallbackPath = "/usr/local/bin:/usr/bin:/bin";

/**
 * The whole environment of a command harness's agent, built from an allowlist — the one place
 * it is built, sandboxed or not: `PATH`, a private `HOME` and `TMPDIR`, `LANG` and `TZ`; the
 * `ECDYSIS_*` variables Ecdysis sets (model, harness folder, project root, base URL); the model
 * endpoint (`OPENAI_BASE_URL` and the key variable); and the names the config lists. Nothing
 * else of the parent's — no GitHub token, no action input, no other model's key — reaches it.
 */
export function agentEnvironment(input: AgentEnvironmentInput): Record<string, string> {
  const { parent, model } = input;
  const env: Record<string, string> = {};
  for (const name of input.pass ?? []) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    PATH: parent.PATH || fallbackPath,
    HOME: input.home,
    TMPDIR: input.tmpdir,
    TMP: input.tmpdir,
    TEMP: input.tmpdir,
    LANG: parent.LANG || "C.UTF-8",
    ECDYSIS_MODEL: model.name,
    ECDYSIS_HARNESS_DIR: input.harnessDir,
    ECDYSIS_PROJECT_ROOT: input.projectRoot,
  });
  if (parent.TZ) env.TZ = parent.TZ;
  if (model.baseUrl) {
    env.ECDYSIS_BASE_URL = model.baseUrl;
    env.OPENAI_BASE_URL = model.baseUrl;
  }
  const key = model.key ?? parent[model.keyFrom ?? model.keyVariable];
  if (key !== undefined) env[model.keyVariable] = key;
  else delete env[model.keyVariable];
  return env;
}
