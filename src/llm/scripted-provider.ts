import type { ChatProvider, ChatRequest, ChatResponse } from "./types.js";

/**
 * Test double: a provider whose replies come from a function of the request. Records every
 * request; throws when the reply function returns undefined (an unexpected call fails loudly).
 */
export class ScriptedProvider implements ChatProvider {
  readonly calls: ChatRequest[] = [];
  constructor(
    private readonly reply: (
      request: ChatRequest,
      callIndex: number,
    ) => Partial<ChatResponse> | undefined,
    readonly model = "scripted",
  ) {}

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const index = this.calls.length;
    this.calls.push(structuredClone(request));
    const partial = this.reply(request, index);
    if (!partial)
      throw new Error(
        `ScriptedProvider: unexpected call #${index} (${request.purpose ?? "no purpose"})`,
      );
    return {
      content: null,
      toolCalls: [],
      finishReason: "stop",
      usage: { promptTokens: 10, completionTokens: 5 },
      latencyMs: 0,
      costUsd: 0,
      model: this.model,
      retries: 0,
      ...partial,
    };
  }
}
