import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/**
 * Environment that lets git push over HTTPS with the workflow token without writing it to disk
 * or argv: a `GIT_CONFIG_*` extra header scoped to the server URL. Skipped when the checkout
 * already carries credentials (actions/checkout with persist-credentials), since two
 * Authorization headers make GitHub refuse the push.
 */
export async function gitAuthEnv(options: {
  cwd: string;
  token: string;
  serverUrl: string;
}): Promise<Record<string, string>> {
  const existing = await execFileAsync(
    "git",
    ["config", "--includes", "--get-regexp", "^http\\..*\\.extraheader$"],
    {
      cwd: options.cwd,
    },
  ).then(
    (result) => result.stdout.trim(),
    () => "",
  );
  if (existing !== "") return {};
  const basic = Buffer.from(`x-access-token:${options.token}`).toString("base64");
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${options.serverUrl.replace(/\/$/, "")}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}
