import { describe, expect, it } from "vitest";
import { agentEnvironment } from "./agent-environment.js";

const parent = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/runner",
  LANG: "en_US.UTF-8",
  TZ: "Europe/Paris",
  OPENAI_API_KEY: "openai-key",
  MY_KEY: "my-key",
  GITHUB_TOKEN: "repository-token",
  "INPUT_API-KEY": "input",
  NODE_OPTIONS: "--require /tmp/pwned.js",
  LISTED: "listed",
};

const base = {
  parent,
  harnessDir: "/c/abc",
  projectRoot: "/p",
  home: "/tmp/home",
  tmpdir: "/tmp",
};

describe("agentEnvironment", () => {
  it("builds the environment from the allowlist only", () => {
    const env = agentEnvironment({
      ...base,
      model: { name: "m", baseUrl: "http://127.0.0.1:9/v1", keyVariable: "OPENAI_API_KEY" },
    });
    expect(env).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/tmp/home",
      TMPDIR: "/tmp",
      TMP: "/tmp",
      TEMP: "/tmp",
      LANG: "en_US.UTF-8",
      TZ: "Europe/Paris",
      ECDYSIS_MODEL: "m",
      ECDYSIS_HARNESS_DIR: "/c/abc",
      ECDYSIS_PROJECT_ROOT: "/p",
      ECDYSIS_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_API_KEY: "openai-key",
    });
  });

  it("gives the key in the variable the config names, read from the current model's, and no other key", () => {
    const env = agentEnvironment({
      ...base,
      model: { name: "probe", keyVariable: "MY_KEY", keyFrom: "OPENAI_API_KEY" },
      pass: ["LISTED", "MISSING"],
    });
    expect(env.MY_KEY).toBe("openai-key");
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.LISTED).toBe("listed");
    expect("MISSING" in env).toBe(false);
    expect(env.OPENAI_BASE_URL).toBeUndefined();
  });

  it("gives a key of Ecdysis's own (a gateway's run-scoped token) instead of the parent's", () => {
    const env = agentEnvironment({
      ...base,
      model: { name: "m", keyVariable: "MY_KEY", key: "run-token" },
    });
    expect(env.MY_KEY).toBe("run-token");
  });

  it("lets no listed name override its own variables", () => {
    const env = agentEnvironment({
      ...base,
      model: { name: "m", keyVariable: "MY_KEY" },
      pass: ["HOME", "PATH"],
    });
    expect(env.HOME).toBe("/tmp/home");
  });
});
