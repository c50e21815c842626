import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { checkDirectAccess, directModelAccess } from "./model-access.js";

const endpoint = (baseUrl: string) => [{ field: "model.baseUrl", baseUrl }];

describe("directModelAccess (interim, until the model gateway)", () => {
  it("refuses before any rollout an endpoint it cannot carry into the sandbox", () => {
    expect(() =>
      checkDirectAccess({
        configFile: "ecdysis.yml",
        endpoints: endpoint("http://127.0.0.1:8080/v1"),
      }),
    ).not.toThrow();
    expect(() =>
      checkDirectAccess({
        configFile: "ecdysis.yml",
        endpoints: endpoint("http://localhost:11434/v1"),
      }),
    ).not.toThrow();
    expect(() =>
      checkDirectAccess({
        configFile: "ecdysis.yml",
        endpoints: endpoint("https://api.openai.com/v1"),
      }),
    ).toThrow(/ecdysis\.yml: 'model\.baseUrl': .*api\.openai\.com is not a loopback endpoint/);
  });

  it("gives an unsandboxed agent the provider's URL, and a sandboxed one a unix socket piped to it", async () => {
    const server = createServer((_, response) => response.end("model says hi"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const provider = Object.assign(new ScriptedProvider(() => undefined, "m"), { baseUrl });
    const scratch = await mkdtemp(join(tmpdir(), "ecdysis-route-"));
    try {
      const direct = await directModelAccess.open({ provider, sandboxed: false, scratch });
      expect(direct.baseUrl).toBe(baseUrl);
      expect(direct.relay).toBeUndefined();
      const route = await directModelAccess.open({ provider, sandboxed: true, scratch });
      expect(route.relay?.socket).toBe(join(scratch, "model.sock"));
      const body = await new Promise<string>((resolve, reject) => {
        const call = request(
          { socketPath: route.relay?.socket, path: "/v1/models" },
          (response) => {
            let text = "";
            response.on("data", (chunk) => (text += chunk));
            response.on("end", () => resolve(text));
          },
        );
        call.on("error", reject);
        call.end();
      });
      expect(body).toBe("model says hi");
      await route.close();
    } finally {
      server.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
