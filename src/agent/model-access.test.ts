import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { CapabilityState } from "../llm/capability-state.js";
import { createWireForwarder, type ModelGateway, startModelGateway } from "../llm/index.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../llm/testing/fake-openai-server.js";
import { testModelConfig } from "../llm/testing/model-config.js";
import { RecordingClock } from "../llm/testing/recording-clock.js";
import { gatewayModelAccess } from "./gateway-access.js";

const realKey = "sk-real-SECRET-9f8e7d6c5b4a39281706";
let fake: FakeOpenAIServer | undefined;
let gateway: ModelGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  await fake?.close();
});

async function openGateway(): Promise<ModelGateway> {
  fake = await startFakeOpenAIServer({
    replies: [
      { kind: "completion", content: "4", usage: { promptTokens: 7, completionTokens: 2 } },
    ],
  });
  const config = testModelConfig(fake.url, { model: "m" });
  const upstream = createWireForwarder({
    config,
    baseUrl: fake.url,
    apiKey: realKey,
    clock: new RecordingClock(),
    capabilities: new CapabilityState({ config, endpoint: fake.url }),
  });
  gateway = await startModelGateway({ upstreams: [upstream] });
  return gateway;
}

/** One chat completion over the unix socket, as the sandbox's relay carries it. */
function callOverSocket(
  socketPath: string,
  token: string,
): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "2+2?" }] });
  return new Promise((resolve, reject) => {
    const call = request(
      {
        socketPath,
        method: "POST",
        path: "/v1/chat/completions",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    call.on("error", reject);
    call.end(body);
  });
}

describe("gatewayModelAccess", () => {
  const provider = Object.assign(new ScriptedProvider(() => undefined, "m"), {
    baseUrl: "https://api.example.com/v1",
  });

  it("gives the agent the gateway's URL and a token of the rollout's own, never the provider's URL or key", async () => {
    const access = gatewayModelAccess(await openGateway());
    const route = await access.open({
      provider,
      sandboxed: false,
      scratch: "/nowhere",
      sampleIndex: 0,
    });
    expect(route.baseUrl).toBe(gateway?.baseUrl);
    expect(route.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(route.key).toBeTruthy();
    expect(route.key).not.toBe(realKey);
    expect(route.relay).toBeUndefined();
    await route.close();
  });

  it("relays a sandboxed agent to the gateway's unix socket, counts its calls and revokes its token on close", async () => {
    const access = gatewayModelAccess(await openGateway());
    const route = await access.open({
      provider,
      sandboxed: true,
      scratch: "/nowhere",
      sampleIndex: 0,
    });
    expect(route.relay).toEqual({ port: gateway?.port, socket: gateway?.socketPath });
    const answered = await callOverSocket(route.relay?.socket ?? "", route.key ?? "");
    expect(answered.status).toBe(200);
    expect(fake?.requests[0].headers.authorization).toBe(`Bearer ${realKey}`);
    await route.close();
    expect(route.tally?.()).toMatchObject({ calls: 1, promptTokens: 7, completionTokens: 2 });
    const after = await callOverSocket(route.relay?.socket ?? "", route.key ?? "");
    expect(after.status).toBe(401);
    expect(fake?.requests).toHaveLength(1);
  });
});
