import { appendFile, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requestDigest } from "../llm/request-digest.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { SecretRedactor } from "../safety/secrets.js";
import { PromptLog, promptLogFile, readPromptLog } from "./prompt-log.js";

const secret = "sk-proj-0123456789abcdefSECRET";

async function freshDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), "ecdysis-prompt-log-"));
}

function request(text: string): ChatRequest {
  return {
    purpose: "diagnostician",
    messages: [
      { role: "system", content: "You are the Diagnostician." },
      { role: "user", content: text },
    ],
  };
}

describe("the refiner's prompt log", () => {
  it("keeps each call's messages and reply under the id its role turn names, scrubbed of secrets", async () => {
    const outDir = await freshDir();
    const redactor = new SecretRedactor([secret]);
    const log = await PromptLog.open({ outDir, fresh: true, keep: true, redactor });
    const inner = new ScriptedProvider(() => ({
      content: `diagnosis, key ${secret}`,
      usage: { promptTokens: 40, completionTokens: 7 },
    }));
    const provider = log?.provider(inner);
    const sent = request(`evidence with ${secret}`);
    await provider?.chat(sent);
    await log?.settled();

    const calls = await readPromptLog(outDir);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      id: requestDigest(sent.messages),
      purpose: "diagnostician",
      cached: false,
      promptTokens: 40,
      completionTokens: 7,
    });
    expect(calls[0].messages.map((message) => message.role)).toEqual(["system", "user"]);
    const text = await readFile(path.join(outDir, promptLogFile), "utf8");
    expect(text).not.toContain(secret);
    expect(calls[0].reply).toContain("[REDACTED-SECRET]");
    // The inner provider saw the request as sent: logging changes nothing on the wire.
    expect(inner.calls[0].messages[1].content).toContain(secret);
  });

  it("logs a failed call with its error and rethrows it", async () => {
    const outDir = await freshDir();
    const log = await PromptLog.open({
      outDir,
      fresh: true,
      keep: true,
      redactor: new SecretRedactor(),
    });
    const provider = log?.provider(new ScriptedProvider(() => undefined));
    await expect(provider?.chat(request("x"))).rejects.toThrow(/unexpected call/);
    await log?.settled();
    const [call] = await readPromptLog(outDir);
    expect(call.reply).toBeNull();
    expect(call.error).toMatch(/unexpected call/);
  });

  it("keeps nothing with keepPrompts off and removes a stale log; a fresh run starts it empty", async () => {
    const outDir = await freshDir();
    await writeFile(path.join(outDir, promptLogFile), '{"stale":true}\n');
    const off = await PromptLog.open({
      outDir,
      fresh: false,
      keep: false,
      redactor: new SecretRedactor(),
    });
    expect(off).toBeUndefined();
    await expect(stat(path.join(outDir, promptLogFile))).rejects.toThrow();

    const logOne = async (fresh: boolean, reply: string, prompt: string) => {
      const log = await PromptLog.open({
        outDir,
        fresh,
        keep: true,
        redactor: new SecretRedactor(),
      });
      await log?.provider(new ScriptedProvider(() => ({ content: reply }))).chat(request(prompt));
      await log?.settled();
    };
    await logOne(true, "a", "one");
    // A resumed run (not fresh) appends to what the crashed one kept.
    await logOne(false, "b", "two");
    expect((await readPromptLog(outDir)).map((call) => call.reply)).toEqual(["a", "b"]);
  });

  it("skips a half-written line and keeps the last reply of a call logged twice", async () => {
    const outDir = await freshDir();
    const log = await PromptLog.open({
      outDir,
      fresh: true,
      keep: true,
      redactor: new SecretRedactor(),
    });
    let reply = "first";
    const provider = log?.provider(new ScriptedProvider(() => ({ content: reply })));
    await provider?.chat(request("same"));
    reply = "second";
    await provider?.chat(request("same"));
    await log?.settled();
    await appendFile(path.join(outDir, promptLogFile), '{"id":"cut-off","purpose":"x","mess');
    const calls = await readPromptLog(outDir);
    expect(calls.map((call) => call.reply)).toEqual(["second"]);
    expect(await readPromptLog(await freshDir())).toEqual([]);
  });
});
