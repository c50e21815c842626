import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { repoRoot } from "../../src/cli/testing/run-cli.js";
import { loadConfig } from "../../src/config/load-config.js";
import { loadTasks } from "../../src/config/load-tasks.js";
import { openModels } from "../../src/eval/open-models.js";
import { chatJson, isAzureHost, strictJsonSchema } from "../../src/llm/index.js";
import {
  generateWorldFiles,
  loadWorld,
  type SimEndpoint,
  type SimServer,
  serveSimModel,
  startSimServer,
} from "../../src/sim/index.js";
import type { Quirk } from "../../src/sim/world-schema.js";

// Every config snippet of docs/endpoints.md, loaded as written and pointed at a loopback server
// that answers the way that service does (keys, routes, api-version, refusals): the endpoint
// check passes, an agent turn with tools and a structured role call come back.

interface Snippet {
  heading: string;
  model: Record<string, unknown>;
}

async function snippets(): Promise<Snippet[]> {
  const text = await readFile(join(repoRoot, "docs", "endpoints.md"), "utf8");
  const found: Snippet[] = [];
  let heading = "";
  for (const block of text.split(/^```/m).entries()) {
    const [index, part] = block;
    if (index % 2 === 0) {
      heading = [...part.matchAll(/^#{2,3} (.+)$/gm)].at(-1)?.[1] ?? heading;
      continue;
    }
    if (!part.startsWith("yaml\n")) continue;
    found.push({
      heading,
      model: (parse(part.slice(5)) as { model: Record<string, unknown> }).model,
    });
  }
  return found;
}

/** How the service behind each heading behaves, and the key it expects. */
const services: Record<string, { quirks?: Quirk[]; endpoint?: SimEndpoint; steps?: string[] }> = {
  OpenAI: { endpoint: { apiKey: "sk-docs-openai-000" } },
  "A reasoning model (o-series, GPT-5)": {
    quirks: ["reasoning-model"],
    endpoint: { apiKey: "sk-docs-openai-000" },
  },
  "Azure OpenAI": {
    endpoint: { azure: { apiVersions: ["2024-10-21"] }, apiKey: "azure-docs-key-000" },
  },
  OpenRouter: { endpoint: { apiKey: "sk-or-docs-000" } },
  Ollama: { quirks: ["rejects-tools"], steps: ["tools"] },
  vLLM: { endpoint: { apiKey: "vllm-docs-key-000" } },
  "llama.cpp's server": {},
};

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const notes = z.object({
  notes: z.array(z.object({ id: z.string(), note: z.string(), cause: z.string() })),
});
const world = await loadWorld("quickstart");
const worldFiles = await generateWorldFiles({
  world,
  outDir: await mkdtemp(join(tmpdir(), "ecdysis-world-")),
});
const chain = (await loadTasks(worldFiles.train)).find((task) => task.category === "multi-hop");

describe("docs/endpoints.md", () => {
  it("has a snippet for every service the README promises", async () => {
    const headings = new Set((await snippets()).map((snippet) => snippet.heading));
    for (const service of Object.keys(services)) expect(headings, service).toContain(service);
  });

  it("every snippet works against a server that behaves like its service", async () => {
    for (const snippet of await snippets()) {
      const service = services[snippet.heading];
      expect(service, snippet.heading).toBeDefined();
      const server = await startSimServer({
        world,
        latencyScale: 0,
        quirks: service.quirks,
        endpoint: service.endpoint,
      });
      servers.push(server);
      const original = String(snippet.model.baseUrl);
      const path = new URL(original).pathname;
      const azure = isAzureHost(original);
      const model = {
        ...snippet.model,
        // The loopback stand-in keeps the service's path; on Azure's own hosts api-key is implied.
        baseUrl: azure ? `${server.url}${path.replace(/^\/openai/, "")}` : server.url,
        ...(azure ? { auth: "api-key" } : {}),
      };
      const dir = await mkdtemp(join(tmpdir(), "ecdysis-docs-"));
      await writeFile(
        join(dir, "ecdysis.yml"),
        JSON.stringify({ model, harness: {}, tasks: { train: "t.jsonl", heldout: "h.jsonl" } }),
      );
      const loaded = await loadConfig(join(dir, "ecdysis.yml"));
      const keyName = snippet.model.apiKeyEnv as string | undefined;
      const env = keyName ? { [keyName]: service.endpoint?.apiKey ?? "unused" } : {};
      const models = await openModels(loaded, { env, simServer: serveSimModel });
      try {
        const turn = await models.agent.chat({
          messages: [{ role: "user", content: chain?.input ?? "" }],
          tools: [
            {
              name: "lookup",
              description: "Looks up a registry entry.",
              parameters: { type: "object", properties: { key: { type: "string" } } },
            },
          ],
          purpose: "agent",
        });
        expect(
          turn.toolCalls.map((call) => call.name),
          snippet.heading,
        ).toEqual(["lookup"]);
        const structured = await chatJson(
          models.refiner,
          {
            messages: [
              {
                role: "user",
                content: `\`\`\`json\n${JSON.stringify({ failures: [{ id: "f1", task: "2+2?", output: "5", answer: "5", verdict: "wrong-answer", events: [], toolCalls: [], steps: 1 }] })}\n\`\`\``,
              },
            ],
            jsonSchema: { name: "failure_notes", schema: strictJsonSchema(notes) },
          },
          notes,
        );
        expect(structured.value.notes[0].id, snippet.heading).toBe("f1");
        expect(
          models.downgrades().map((step) => step.parameter),
          snippet.heading,
        ).toEqual(service.steps ?? []);
        const headers = server.requestHeaders();
        if (!keyName)
          expect(
            headers.every((h) => h.authorization === undefined),
            snippet.heading,
          ).toBe(true);
        if (snippet.model.headers)
          expect(headers[0]["x-title"], snippet.heading).toBe(
            (snippet.model.headers as Record<string, string>)["X-Title"],
          );
      } finally {
        await models.close();
      }
    }
  });
});
