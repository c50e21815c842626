import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { InputError } from "../errors/input-error.js";
import { loadWorld, serveSimModel, startSimServer } from "../sim/index.js";
import { openModels } from "./open-models.js";

async function config(text: string) {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-models-"));
  await writeFile(
    join(dir, "ecdysis.yml"),
    `${text}harness: {}\ntasks:\n  train: t.jsonl\n  heldout: h.jsonl\n`,
  );
  return loadConfig(join(dir, "ecdysis.yml"));
}

const ask = { messages: [{ role: "user" as const, content: "What is 2 + 3?" }], purpose: "agent" };

describe("openModels", () => {
  it("starts the sim in-process for agent, refiner and probe, and stops it on close", async () => {
    const loaded = await config(
      "model:\n  provider: sim\n  model: sim-1\n  world: quickstart\n  maxRetries: 0\nprobe:\n  provider: sim\n  model: sim-2\n  world: quickstart\n",
    );
    const models = await openModels(loaded, { latencyScale: 0, simServer: serveSimModel });
    try {
      expect(models.agent.model).toBe("sim-1");
      expect(models.refiner.model).toBe("sim-1");
      expect(models.probe?.model).toBe("sim-2");
      const reply = await models.agent.chat(ask);
      expect(reply.usage.promptTokens).toBeGreaterThan(0);
      await models.probe?.chat(ask);
      expect(models.agent.totals().calls).toBe(1);
      expect(models.refiner.totals().calls).toBe(0);
    } finally {
      await models.close();
    }
    await expect(models.agent.chat(ask)).rejects.toThrow();
  });

  it("serves a sim config only through the simServer its caller passes (the sim is wired in at the edges)", async () => {
    const loaded = await config("model:\n  provider: sim\n  model: sim-1\n  world: quickstart\n");
    const served: string[] = [];
    const models = await openModels(loaded, {
      latencyScale: 0,
      simServer: async (options) => {
        served.push(`${options.config.world} ${options.config.model} ${options.latencyScale}`);
        return serveSimModel(options);
      },
    });
    await models.close();
    expect(served).toEqual(["quickstart sim-1 0"]);
    await expect(openModels(loaded, { latencyScale: 0 })).rejects.toThrow(
      /provider: sim needs the simulated model.*`simServer`/,
    );
  });

  it("reads the API key from the named variable and fails clearly when it is unset", async () => {
    const server = await startSimServer({ world: await loadWorld("quickstart") });
    try {
      const loaded = await config(
        `model:\n  provider: openai\n  baseUrl: ${server.url}\n  model: sim-1\n  apiKeyEnv: MY_KEY\n`,
      );
      const error = await openModels(loaded, { env: {} }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).location.field).toBe("model.apiKeyEnv");
      expect((error as Error).message).toContain("MY_KEY is not set");
      const models = await openModels(loaded, { env: { MY_KEY: "k" } });
      expect(models.probe).toBeUndefined();
      await models.agent.chat(ask);
      // The one-token endpoint check, then the call.
      expect(server.requests()).toBe(2);
      expect(server.requestHeaders().map((headers) => headers.authorization)).toEqual([
        "Bearer k",
        "Bearer k",
      ]);
      await models.close();
    } finally {
      await server.close();
    }
  });

  it("sends no key to a keyless server, and $OPENAI_API_KEY when apiKeyEnv is left out", async () => {
    const server = await startSimServer({ world: await loadWorld("quickstart"), latencyScale: 0 });
    try {
      const loaded = await config(
        `model:\n  provider: openai\n  baseUrl: ${server.url}\n  model: sim-1\n`,
      );
      const keyless = await openModels(loaded, { env: {} });
      await keyless.agent.chat(ask);
      await keyless.close();
      const withDefault = await openModels(loaded, { env: { OPENAI_API_KEY: "sk-default" } });
      await withDefault.agent.chat(ask);
      await withDefault.close();
      const auth = server.requestHeaders().map((headers) => headers.authorization);
      expect(auth).toEqual([undefined, undefined, "Bearer sk-default", "Bearer sk-default"]);
      expect(server.requestHeaders().every((headers) => headers["api-key"] === undefined)).toBe(
        true,
      );
    } finally {
      await server.close();
    }
  });

  it("opens the judge from its own section, else the refiner's", async () => {
    const loaded = await config(
      "model:\n  provider: sim\n  model: sim-1\n  world: quickstart\nrefiner:\n  provider: sim\n  model: sim-r\n  world: quickstart\njudge:\n  provider: sim\n  model: sim-j\n  world: quickstart\n",
    );
    const models = await openModels(loaded, { latencyScale: 0, simServer: serveSimModel });
    try {
      expect([models.agent.model, models.refiner.model, models.judge.model]).toEqual([
        "sim-1",
        "sim-r",
        "sim-j",
      ]);
    } finally {
      await models.close();
    }
    const fallback = await openModels(
      await config(
        "model:\n  provider: sim\n  model: sim-1\n  world: quickstart\nrefiner:\n  provider: sim\n  model: sim-r\n  world: quickstart\n",
      ),
      { latencyScale: 0, simServer: serveSimModel },
    );
    expect(fallback.judge.model).toBe("sim-r");
    await fallback.close();
  });
});
