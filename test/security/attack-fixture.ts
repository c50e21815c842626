import { existsSync, readdirSync, readFileSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AttackPlan } from "./hostile-agent.js";

/** The secrets of a runner's job environment, as canaries (values no redactor knows by shape). */
export const canaryEnv: Record<string, string> = {
  GITHUB_TOKEN: "canary-github-token-4417",
  "INPUT_GITHUB-TOKEN": "canary-github-token-4417",
  "INPUT_API-KEY": "canary-api-key-2290",
  ACTIONS_RUNTIME_TOKEN: "canary-runtime-token-8812",
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: "canary-oidc-token-5531",
  ACTIONS_CACHE_URL: "http://127.0.0.1:9/canary-cache/",
  NPM_TOKEN: "canary-npm-token-7345",
};

/**
 * A runner's places around a project, for attacking: a home with `.git-credentials`, a temp
 * folder with the job's command files (`GITHUB_ENV`…), a loopback listener that is not the
 * model, and the paths an attacker writes to. `env` is the environment of the Ecdysis process
 * (the canaries and those places); `plan` the attack that knows them all.
 */
export interface AttackScene {
  env: Record<string, string>;
  plan: AttackPlan;
  /** Connections the listener that is not the model received. */
  connections(): number;
  /** What the attack left on the host: changed job files, files written outside, live processes. */
  damage(): Promise<{ jobFiles: string[]; outside: string[]; processes: string[] }>;
  close(): Promise<void>;
}

const jobFileNames = ["set_env", "add_path", "set_output", "step_summary"];

/** Builds the scene around `project` (the folder holding the config); `gitConfig` gets a credential. */
export async function createAttackScene(project: string, gitConfig: string): Promise<AttackScene> {
  const runner = await mkdtemp(join(tmpdir(), "ecdysis-attack-runner-"));
  const home = join(runner, "home");
  const temp = join(runner, "temp");
  const commands = join(temp, "_runner_file_commands");
  await mkdir(home, { recursive: true });
  await mkdir(commands, { recursive: true });
  await writeFile(
    join(home, ".git-credentials"),
    "https://x:canary-git-credential-9921@github.com\n",
  );
  const jobFiles = jobFileNames.map((name) => join(commands, `${name}_1`));
  for (const file of jobFiles) await writeFile(file, "");
  await mkdir(join(gitConfig, ".."), { recursive: true });
  // What actions/checkout persists: the token as an extra header of the checkout's git config.
  await appendFile(
    gitConfig,
    '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic canary-extraheader-6604\n',
  );
  let connections = 0;
  const listener: Server = createServer((socket) => {
    connections++;
    socket.resume();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const marker = `ecdysis-left-behind-${Date.now().toString(36)}`;
  const outside = [
    join(project, "pwned.txt"),
    join(home, "pwned.txt"),
    join(tmpdir(), `${marker}.txt`),
  ];
  const plan: AttackPlan = {
    port: (listener.address() as { port: number }).port,
    jobFiles,
    outside,
    credentials: [gitConfig, join(home, ".git-credentials")],
    marker,
  };
  const env = {
    ...canaryEnv,
    HOME: home,
    RUNNER_TEMP: temp,
    GITHUB_ENV: jobFiles[0],
    GITHUB_PATH: jobFiles[1],
  };
  return {
    env,
    plan,
    connections: () => connections,
    async damage() {
      const changed = [];
      for (const file of jobFiles) if ((await readFile(file, "utf8")) !== "") changed.push(file);
      return {
        jobFiles: changed,
        outside: outside.filter((file) => existsSync(file)),
        processes: processesWith(marker),
      };
    },
    async close() {
      for (const pid of processesWith(marker)) process.kill(Number(pid), "SIGKILL");
      for (const file of outside) await rm(file, { force: true });
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await rm(runner, { recursive: true, force: true });
    },
  };
}

/** Pids of the host's processes whose argv holds `marker`. */
function processesWith(marker: string): string[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
}
