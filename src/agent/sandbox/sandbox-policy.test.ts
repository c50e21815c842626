import { describe, expect, it } from "vitest";
import { ecdysisConfigSchema, type LoadedConfig } from "../../config/config-schema.js";
import { SandboxUnavailableError } from "../../errors/sandbox-error.js";
import { decideSandbox } from "./sandbox-policy.js";
import type { SandboxProbe } from "./sandbox-probe.js";

const loadedWith = (harness: Record<string, unknown>): LoadedConfig => ({
  config: ecdysisConfigSchema.parse({
    model: { provider: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m" },
    harness: { kind: "command", command: ["python3", "agent.py"], ...harness },
    tasks: { train: "/p/tasks/train.jsonl", heldout: "/p/tasks/heldout.jsonl" },
  }),
  path: "/p/ecdysis.yml",
  root: "/p",
  hash: "h",
});

const missing: SandboxProbe = {
  available: false,
  reason: "bubblewrap (bwrap) is not installed",
  fix: "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)",
};
const works: SandboxProbe = { available: true, engine: "bubblewrap", bwrap: "bwrap" };
const probe = (result: SandboxProbe) => async () => result;

describe("decideSandbox", () => {
  it("sandboxes where bubblewrap works, by default", async () => {
    const decision = await decideSandbox({ loaded: loadedWith({}), probe: probe(works) });
    expect(decision.sandbox?.engine).toBe("bubblewrap");
    expect(decision.status).toEqual({ mode: "auto", engine: "bubblewrap" });
  });

  it("refuses LLM-edited or pull-request code without it under auto, in one line naming the fix", async () => {
    const refusal = decideSandbox({
      loaded: loadedWith({}),
      untrusted: "evolve runs LLM-edited candidates",
      probe: probe(missing),
    });
    await expect(refusal).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(refusal).rejects.toThrow(
      /^sandbox unavailable: bubblewrap \(bwrap\) is not installed; evolve runs LLM-edited candidates.*apt-get install bubblewrap.*harness\.sandbox: off$/,
    );
  });

  it("runs the user's own harness without it under auto, with a warning", async () => {
    const decision = await decideSandbox({ loaded: loadedWith({}), probe: probe(missing) });
    expect(decision.sandbox).toBeUndefined();
    expect(decision.status.warning).toMatch(/unsandboxed.*apt-get install bubblewrap/);
  });

  it("refuses every run without it when required, even the user's own harness", async () => {
    const required = decideSandbox({
      loaded: loadedWith({ sandbox: "required" }),
      probe: probe(missing),
    });
    await expect(required).rejects.toThrow(/harness\.sandbox is required/);
  });

  it("never sandboxes when off, and says so", async () => {
    const decision = await decideSandbox({
      loaded: loadedWith({ sandbox: { mode: "off", read: [".venv"] } }),
      untrusted: "evolve runs LLM-edited candidates",
      probe: probe(works),
    });
    expect(decision.sandbox).toBeUndefined();
    expect(decision.status).toMatchObject({ mode: "off", engine: "none" });
    expect(decision.status.warning).toMatch(/harness\.sandbox is off/);
  });

  it("refuses a declared read that would show the task files, naming the field", async () => {
    const loaded = loadedWith({ sandbox: { read: ["tasks"] } });
    await expect(decideSandbox({ loaded, probe: probe(works) })).rejects.toThrow(
      /'harness\.sandbox\.read': 'tasks' cannot be mounted for the agent: it holds \/p\/tasks\/train\.jsonl/,
    );
    const whole = loadedWith({ sandbox: { read: ["."] } });
    await expect(decideSandbox({ loaded: whole, probe: probe(works) })).rejects.toThrow(/'\.'/);
  });

  it("does nothing for a built-in harness", async () => {
    const decision = await decideSandbox({
      loaded: loadedWith({ kind: "builtin", command: undefined }),
      untrusted: "evolve runs LLM-edited candidates",
      probe: probe(missing),
    });
    expect(decision).toEqual({ status: { mode: "auto", engine: "none" } });
  });
});

describe("harness.env", () => {
  it("refuses the runner's and the repository's variables", () => {
    const parse = (env: string[]) =>
      ecdysisConfigSchema.safeParse({
        model: { provider: "openai", baseUrl: "http://x/v1", model: "m" },
        harness: { kind: "command", command: ["a"], env },
        tasks: { train: "a", heldout: "b" },
      });
    expect(parse(["MY_SETTING"]).success).toBe(true);
    for (const name of ["GITHUB_TOKEN", "INPUT_API-KEY", "ACTIONS_RUNTIME_TOKEN", "GITHUB_ENV"])
      expect(parse([name]).success, name).toBe(false);
  });
});
