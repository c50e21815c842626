import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("fake OpenAI server", () => {
  it("answers scripted calls for the real SDK and records them", async () => {
    server = await startFakeOpenAIServer({
      replies: (request) => ({ kind: "completion", content: `#${request.index}` }),
    });
    const client = new OpenAI({ baseURL: server.url, apiKey: "k", maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0].message.content).toBe("#0");
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      body: { model: "m" },
    });
    server.assertDone();
  });

  it("fails loudly on calls it was not scripted for, and on unused script", async () => {
    server = await startFakeOpenAIServer({
      replies: [
        { kind: "completion", content: "one" },
        { kind: "completion", content: "two" },
      ],
    });
    const client = new OpenAI({ baseURL: server.url, apiKey: "k", maxRetries: 0 });
    await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(() => server!.assertDone()).toThrow(/1 scripted reply\(ies\) never requested/);
    await expect(client.models.list()).rejects.toThrow(/unexpected call #1 to GET \/v1\/models/);
    expect(() => server!.assertDone()).toThrow(/unexpected request/);
  });
});
