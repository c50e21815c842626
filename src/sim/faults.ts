import type { ServerResponse } from "node:http";
import { wait } from "./latency.js";

/**
 * Fault injection for tests of the client's transport paths, counted over chat requests
 * (1-based): every n-th request gets the fault. Each is what real endpoints and the networks in
 * front of them do.
 */
export interface SimFaults {
  /** Every n-th request answers 429 with `Retry-After: retryAfterSeconds`. */
  status429Every?: number;
  retryAfterSeconds?: number;
  /** Every n-th request answers 500. */
  status500Every?: number;
  /** Every n-th request waits `stallMs` before answering. */
  stallEvery?: number;
  stallMs?: number;
  /** Every n-th structured (role) reply is cut in half (malformed JSON). */
  truncatedJsonEvery?: number;
  /** Every n-th request is answered 200 with a body that is not a usable completion. */
  nonCompletionEvery?: number;
  nonCompletion?: NonCompletion;
  /** Every n-th request has its connection reset before any byte of the reply. */
  resetEvery?: number;
  /** Every n-th request gets the headers and part of the body, then the connection drops. */
  dropMidBodyEvery?: number;
}

/** The 200s that are not completions: a proxy's login page and the empty shapes servers send. */
export type NonCompletion =
  | "html"
  | "no-choices"
  | "empty-choices"
  | "null-content"
  | "length-empty";

const every = (n: number | undefined, count: number) => n !== undefined && n > 0 && count % n === 0;

/**
 * Plays the fault due for request `number`, if any: true when the reply has been sent (or the
 * connection dropped) and the request must not be answered normally.
 */
export async function playFault(
  faults: SimFaults,
  number: number,
  response: ServerResponse,
): Promise<boolean> {
  if (every(faults.stallEvery, number)) await wait(faults.stallMs ?? 0);
  if (every(faults.resetEvery, number)) {
    response.socket?.destroy();
    return true;
  }
  if (every(faults.dropMidBodyEvery, number)) {
    response.writeHead(200, { "content-type": "application/json", "content-length": "4096" });
    response.write('{"id":"chatcmpl-sim","object":"chat.completion","choices":[{"index":0,');
    setImmediate(() => response.socket?.destroy());
    return true;
  }
  if (every(faults.status429Every, number)) {
    send(response, 429, errorBody("rate limited (injected)", "rate_limit_error"), {
      "retry-after": String(faults.retryAfterSeconds ?? 0),
    });
    return true;
  }
  if (every(faults.status500Every, number)) {
    send(response, 500, errorBody("server error (injected)", "server_error"));
    return true;
  }
  if (every(faults.nonCompletionEvery, number)) {
    sendNonCompletion(response, faults.nonCompletion ?? "html");
    return true;
  }
  return false;
}

function sendNonCompletion(response: ServerResponse, kind: NonCompletion): void {
  if (kind === "html") {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      "<!doctype html><html><body><h1>Sign in</h1><form>Log in to continue</form></body></html>",
    );
    return;
  }
  const base = { id: "chatcmpl-sim", object: "chat.completion", created: 0, model: "sim" };
  const message = (content: string | null) => ({
    index: 0,
    message: { role: "assistant", content },
  });
  const bodies: Record<Exclude<NonCompletion, "html">, unknown> = {
    "no-choices": base,
    "empty-choices": { ...base, choices: [] },
    "null-content": { ...base, choices: [{ ...message(null), finish_reason: "stop" }] },
    "length-empty": { ...base, choices: [{ ...message(""), finish_reason: "length" }] },
  };
  send(response, 200, bodies[kind]);
}

/** OpenAI's error body shape. */
export function errorBody(message: string, type: string) {
  return { error: { message, type, code: null, param: null } };
}

/** Sends a JSON reply (a no-op when the connection is gone). */
export function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
