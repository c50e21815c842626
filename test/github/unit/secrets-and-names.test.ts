import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { stageScrubbed, uploadRunArtifact } from "../../../src/github/artifact.js";
import { statusDescription } from "../../../src/github/commit-status.js";
import { defaultBranchFor, sanitizeBranchName } from "../../../src/github/git.js";
import { fitBody, maxBodyChars } from "../../../src/github/pull-request.js";
import { neutraliseWorkflowCommands, SecretScrubber } from "../../../src/github/secrets.js";

describe("secrets", () => {
  it("scrubs a token and its base64 / basic-auth forms", () => {
    const scrubber = new SecretScrubber();
    scrubber.add("ghs_abcdef123456");
    const basic = Buffer.from("x-access-token:ghs_abcdef123456").toString("base64");
    expect(scrubber.scrub(`t=ghs_abcdef123456 h=AUTHORIZATION: basic ${basic}`)).toBe(
      "t=*** h=AUTHORIZATION: basic ***",
    );
  });

  it("neutralises workflow commands in logged text", () => {
    expect(neutraliseWorkflowCommands("ok\n::add-mask::x\n  ::stop-commands::y")).toBe(
      "ok\n: :add-mask::x\n  : :stop-commands::y",
    );
  });

  it("stages an artifact with secrets scrubbed and without .git", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ecdysis-stage-"));
    mkdirSync(join(dir, "traces"));
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, "traces", "t.json"), '{"key":"sk-live-999999"}');
    writeFileSync(join(dir, ".git", "config"), "token");
    const scrubber = new SecretScrubber();
    scrubber.add("sk-live-999999");
    const staged = await stageScrubbed({ dir, scrub: (text) => scrubber.scrub(text) });
    expect(staged.files.map((file) => relative(staged.root, file))).toEqual([
      join("traces", "t.json"),
    ]);
    expect(readFileSync(staged.files[0], "utf8")).toBe('{"key":"***"}');
  });
});

describe("artifact", () => {
  it("warns instead of failing the run when the report folder cannot be staged", async () => {
    const warnings: string[] = [];
    const uploaded = await uploadRunArtifact({
      name: "ecdysis-evolve-1",
      dir: join(tmpdir(), "ecdysis-no-such-run-folder"),
      scrub: (text) => text,
      warn: (message) => warnings.push(message),
      uploader: {
        upload: async () => {
          throw new Error("must not be called");
        },
      },
    });
    expect(uploaded).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/^artifact not staged: /)]);
  });
});

describe("names and limits", () => {
  it("sanitises branch names git would refuse", () => {
    expect(sanitizeBranchName("ecdysis/my harness..v2.lock")).toBe("ecdysis/my-harness.v2");
    expect(sanitizeBranchName("-x//$(rm -rf)/`y`")).toBe("x/rm-rf-/y");
    expect(sanitizeBranchName("..")).toBe("ecdysis/harness");
    expect(defaultBranchFor("agents/Support Bot/harness")).toBe(
      "ecdysis/agents-support-bot-harness",
    );
  });

  it("keeps PR bodies and status descriptions under GitHub's limits", () => {
    expect(fitBody("x".repeat(maxBodyChars + 10)).length).toBeLessThanOrEqual(maxBodyChars);
    expect(fitBody("short")).toBe("short");
    expect(statusDescription("a ".repeat(200)).length).toBeLessThanOrEqual(140);
  });
});
