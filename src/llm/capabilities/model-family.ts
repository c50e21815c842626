/**
 * OpenAI's reasoning models (o-series, GPT-5 except the chat variants) take
 * `max_completion_tokens` and only their default temperature; a provider prefix
 * (`openai/o3-mini` on OpenRouter) is allowed.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split("/").at(-1) ?? "";
  return /^o\d+(-|$)/.test(name) || (/^gpt-5/.test(name) && !/^gpt-5(\.\d+)?-chat/.test(name));
}
