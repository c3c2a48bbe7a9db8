/**
 * A `fetch` for the real SDK clients that never touches the network: it records the request body and
 * answers with a canned status, headers and body (JSON or SSE frames produced by the dialect encoders).
 */
export interface CannedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

export function cannedFetch(answer: CannedAnswer | (() => CannedAnswer)) {
  const sentBodies: unknown[] = [];
  const fetchImpl = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === "string") sentBodies.push(JSON.parse(init.body));
    const { status = 200, headers = {}, body } = typeof answer === "function" ? answer() : answer;
    return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  };
  return { fetch: fetchImpl as typeof fetch, sentBodies };
}

export function sseAnswer(frames: readonly string[]): CannedAnswer {
  return { body: frames.join(""), headers: { "content-type": "text/event-stream" } };
}

/** Only loopback-looking base URLs: the canned fetch answers before any connection is made. */
export const UNUSED_BASE_URL = "http://127.0.0.1:9";
