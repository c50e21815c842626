import { InputError } from "../errors/input-error.js";

/** The first Actions runner release that runs `using: node24` actions. */
const minimumRunnerVersion = "2.327.1";

/** The Node major `action.yml` declares (`runs.using: node24`). */
const declaredNodeMajor = 24;

/**
 * The runner's own version is not visible to a step; the Node it started the Action on is. A
 * runner older than 2.327.1 refuses `node24` before any of our code runs (its own error: "'using:
 * node24' is not supported"); one that runs us on an older Node was told to (the
 * `ACTIONS_RUNNER_FORCE_ACTIONS_NODE_VERSION` setting) or has no Node 24 (ARM32). On a runner
 * (`RUNNER_ENVIRONMENT` set, as every runner that can start a node24 action sets it) that is
 * refused with one line naming the minimum; local runs (`@github/local-action`, `node
 * dist/index.js`) take any Node the package supports.
 */
export function runtimeProblem(options: {
  nodeVersion: string;
  env: NodeJS.ProcessEnv;
}): InputError | undefined {
  if (!options.env.RUNNER_ENVIRONMENT) return undefined;
  const major = Number(/^v?(\d+)/.exec(options.nodeVersion)?.[1] ?? "0");
  if (major >= declaredNodeMajor) return undefined;
  return new InputError(
    "runner",
    `Ecdysis runs on node24 (GitHub Actions runner ${minimumRunnerVersion} or later), but this runner started it on Node ${options.nodeVersion}: update the runner (self-hosted and GHES runners too) and do not force an older Node with ACTIONS_RUNNER_FORCE_ACTIONS_NODE_VERSION`,
    { field: "runs-on" },
  );
}
