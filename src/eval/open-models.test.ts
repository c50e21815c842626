import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { InputError } from "../errors/input-error.js";
import { loadWorld, startSimServer } from "../sim/index.js";
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
    const models = await openModels(loaded, { latencyScale: 0 });
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
      expect(server.requests()).toBe(1);
      await models.close();
    } finally {
      await server.close();
    }
  });
});
