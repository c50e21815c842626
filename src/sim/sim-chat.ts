import type { ServerResponse } from "node:http";
import { chatCompletionEvents, responseEvents } from "../llm/gateway/event-stream.js";
import { agentReply } from "./agent-behaviour.js";
import { shortHash } from "./draw.js";
import { refuseChat, type SimEndpoint } from "./endpoint-behaviour.js";
import { errorBody, playFault, type SimFaults, send } from "./faults.js";
import { type GroundTruthLog, groundTruthKey } from "./ground-truth-log.js";
import { latencyMs, wait } from "./latency.js";
import { contextRefusal, misbehave, type SimMisbehaviour } from "./misbehaviour.js";
import {
  type ChatBody,
  chatBodySchema,
  completionBody,
  estimateTokens,
  promptTokens,
  toSimRequest,
  type WireToolCall,
} from "./openai-wire.js";
import { evidenceBlock } from "./refiner/evidence.js";
import { inferSchemaName, refinerReply } from "./refiner/refiner-reply.js";
import { chatBodyOfResponses, responseBody } from "./responses-wire.js";
import type { SimServerOptions } from "./server.js";
import { formatStructured } from "./structured-format.js";
import type { Quirk } from "./world-schema.js";

/**
 * The chat side of the sim server: answers each chat request as the simulated model would
 * (faults, refusals, misbehaviours and latency included), logs its ground truth and counts it.
 */
export class SimChat {
  /** Chat requests received so far (faults and refusals included). */
  count = 0;
  /** Requests that reached the agent's or a refiner role's behaviour. */
  readonly bySide = { agent: 0, refiner: 0 };
  faults: SimFaults;
  private structuredCount = 0;

  constructor(
    private readonly settings: {
      options: SimServerOptions;
      quirks: Set<Quirk>;
      endpoint: SimEndpoint;
      defaultModel: string;
      log: GroundTruthLog;
    },
  ) {
    this.faults = settings.options.faults ?? {};
  }

  private answer(body: ChatBody, raw: string, model: string, number: number) {
    const { quirks, log } = this.settings;
    const { world } = this.settings.options;
    const request = toSimRequest(body, { model, nativeTools: !quirks.has("no-native-tools") });
    if (quirks.has("ignore-response-format")) request.schemaName = undefined;
    const role = request.schemaName ?? inferSchemaName(evidenceBlock(request));
    if (role) {
      let content = formatStructured(refinerReply(world, request, role), quirks);
      if (
        (this.faults.truncatedJsonEvery ?? 0) > 0 &&
        ++this.structuredCount % (this.faults.truncatedJsonEvery ?? 1) === 0
      )
        content = content.slice(0, Math.floor(content.length / 2));
      log.write({
        request: number,
        model,
        seed: request.seed,
        role,
        key: null,
        task: null,
        hits: [],
      });
      return { content, toolCalls: [] as WireToolCall[], side: "refiner" as const };
    }
    const reply = agentReply(world, request);
    const statement = reply.statement;
    log.write({
      request: number,
      model,
      seed: request.seed,
      role: "agent",
      key: statement ? groundTruthKey(statement, model, request.seed) : null,
      task: statement ? shortHash("statement", statement) : null,
      hits: reply.hits,
    });
    const toolCalls: WireToolCall[] = reply.toolCalls.map((call, index) => ({
      id: `call_${shortHash(raw, index)}`,
      type: "function",
      function: call,
    }));
    return { content: reply.content, toolCalls, side: "agent" as const };
  }

  private misbehaviourOf(side: "agent" | "refiner"): SimMisbehaviour | undefined {
    return this.settings.options.misbehaviours?.find((entry) => entry.side === side);
  }

  /** Answers one chat request (Chat Completions or Responses API) on `response`. */
  async chat(
    raw: string,
    route: { api: "chat" | "responses"; deployment?: string },
    response: ServerResponse,
  ): Promise<void> {
    const { endpoint, quirks, defaultModel, options } = this.settings;
    const number = ++this.count;
    if (await playFault(this.faults, number, response)) return;
    const parsed = parseChatBody(raw, route.api);
    if ("error" in parsed)
      return send(response, 400, errorBody(parsed.error, "invalid_request_error"));
    const { body } = parsed;
    const model = route.deployment ?? (body.model || defaultModel);
    const refusal = refuseChat(endpoint, body, model);
    if (refusal) return send(response, refusal.status, refusal.body);
    const side = isRoleRequest(body, quirks) ? "refiner" : "agent";
    const tooLong = contextRefusal(body, this.misbehaviourOf(side));
    if (tooLong) return send(response, tooLong.status, tooLong.body);
    this.bySide[side] += 1;
    const { content, toolCalls } = this.answer(body, raw, model, number);
    const completionTokens = estimateTokens(
      (content ?? "") + toolCalls.map((call) => call.function.arguments).join(""),
    );
    await wait(latencyMs(options.world, completionTokens, options.latencyScale));
    const reply = {
      id: shortHash(raw),
      model,
      content,
      toolCalls,
      prompt: promptTokens(body),
      completionTokens,
    };
    if (route.api === "responses") {
      const full = responseBody(reply);
      return body.stream ? sendEvents(response, responseEvents(full)) : send(response, 200, full);
    }
    const completion = completionBody(reply);
    const misbehaviour = this.misbehaviourOf(side);
    const full = (misbehaviour ? misbehave(completion, misbehaviour.kind) : completion) as Record<
      string,
      unknown
    >;
    if (!body.stream) return send(response, 200, full);
    const includeUsage =
      (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    sendEvents(response, chatCompletionEvents(full, { includeUsage }));
  }
}

/** A chat-completions body, or a Responses API body read as one (`responses-wire.ts`). */
function parseChatBody(
  raw: string,
  api: "chat" | "responses",
): { body: ChatBody } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: "request body is not valid JSON" };
  }
  if (api === "responses") return chatBodyOfResponses(json);
  const parsed = chatBodySchema.safeParse(json);
  if (parsed.success) return { body: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `invalid request: ${issue?.path.join(".")}: ${issue?.message}` };
}

/** A streamed reply: the events of a finished reply, as OpenAI's servers send them. */
function sendEvents(response: ServerResponse, events: string[]): void {
  if (response.destroyed) return;
  response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
  for (const event of events) response.write(event);
  response.end();
}

/** Whether a request is a refiner role's (a structured reply, or an evidence block) or the agent's. */
function isRoleRequest(body: ChatBody, quirks: Set<Quirk>): boolean {
  const request = toSimRequest(body, { model: "", nativeTools: !quirks.has("no-native-tools") });
  return !!(request.schemaName ?? inferSchemaName(evidenceBlock(request)));
}
