/**
 * A large request body on the same-wire lane (SPEC R-GW-6, R-ST-6): the upstream receives the client's
 * bytes with only the lane's edits, with their exact content-length (never chunked), and a rotation after a 429
 * sends the very same bytes with the next credential — the lane sends views of the client's bytes, not a copy,
 * and they can be sent again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startCapturingUpstream, type CapturingUpstream } from "./fixtures/capturing-upstream.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const CLIENT_TOKEN = "large-body-client-token-1";
const chunk = (choices: string, usage = "null") =>
  `data: {"id":"chatcmpl-big","object":"chat.completion.chunk","created":1700000000,"model":"up-gpt","choices":${choices},"usage":${usage}}\n\n`;
const OPENAI_EVENTS = [
  chunk('[{"index":0,"delta":{"role":"assistant","content":"Read it."},"finish_reason":null}]'),
  chunk('[{"index":0,"delta":{},"finish_reason":"stop"}]'),
  chunk("[]", '{"prompt_tokens":250000,"completion_tokens":3,"total_tokens":250003}'),
  "data: [DONE]\n\n",
];
const OPENAI_JSON = '{"id":"chatcmpl-big","object":"chat.completion","created":1700000000,"model":"up-gpt","choices":[]}';

let upstream: CapturingUpstream;
let gateway: RunningGateway;

/** About 1 MB of conversation with escapes and multi-byte text, as agents send it. */
function largeBody(stream: boolean): string {
  const turn = 'Here is the file:\n```ts\nexport const value = "x";\n```\nand a "quoted" note — déjà vu.\t'.repeat(40);
  const messages: { role: string; content: string }[] = [];
  while (JSON.stringify(messages).length < 1024 * 1024)
    messages.push({ role: "user", content: turn }, { role: "assistant", content: turn });
  messages.push({ role: "user", content: "continue" });
  return JSON.stringify({ model: "openai/up-gpt", ...(stream ? { stream: true } : {}), messages });
}

async function post(body: string): Promise<Response> {
  return fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${CLIENT_TOKEN}` },
    body,
  });
}

beforeAll(async () => {
  upstream = await startCapturingUpstream({ openai: { json: OPENAI_JSON, events: OPENAI_EVENTS }, anthropic: { json: "{}", events: [] } });
  gateway = await startGateway({
    port: 0,
    config: {
      models: { providers: { openai: { api: "openai-chat", baseUrl: `${upstream.url}/v1`, timeoutSeconds: 5 } } },
      auth: {
        profiles: apiKeyProfiles({ "openai:a": "LARGE_OPENAI_A", "openai:b": "LARGE_OPENAI_B" }),
      },
      agents: { defaults: { model: { primary: "openai/up-gpt", fallbacks: [] } } },
      gateway: { auth: { tokens: [CLIENT_TOKEN] } },
      state: { backend: "memory" },
    },
    env: { LARGE_OPENAI_A: "sk-large-aaaaaaaaaa", LARGE_OPENAI_B: "sk-large-bbbbbbbbbb" },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.failures.length = 0;
});

describe("a 1 MB request body on the same-wire lane", () => {
  it("R-GW-4: over gateway.maxBodyMb it is a 413 in the client's dialect, and reaches no provider", async () => {
    const small = await startGateway({
      port: 0,
      config: {
        models: { providers: { openai: { api: "openai-chat", baseUrl: `${upstream.url}/v1`, timeoutSeconds: 5 } } },
        auth: { profiles: { "openai:a": { provider: "openai", mode: "api_key", keyRef: { env: "LARGE_OPENAI_A" } } } },
        agents: { defaults: { model: { primary: "openai/up-gpt", fallbacks: [] } } },
        gateway: { auth: { tokens: [CLIENT_TOKEN] }, maxBodyMb: 0.5 },
        state: { backend: "memory" },
      },
      env: { LARGE_OPENAI_A: "sk-large-aaaaaaaaaa" },
    });
    try {
      const response = await fetch(`${small.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${CLIENT_TOKEN}` },
        body: largeBody(false),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain("gateway.maxBodyMb");
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await small.close();
    }
  });

  it("R-ST-6, R-GW-6: a non-streamed request goes upstream as the client's bytes with only model and the stream options changed, with its length", async () => {
    const body = largeBody(false);
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe("Read it.");
    const expected = body.replace(/^\{"model":"openai\/up-gpt"/, '{"stream":true,"stream_options":{"include_usage":true},"model":"up-gpt"');
    expect(upstream.requests).toHaveLength(1);
    const [received] = upstream.requests;
    expect(received?.body === expected).toBe(true);
    expect(received?.headers["content-length"]).toBe(String(Buffer.byteLength(expected)));
    expect(received?.headers["transfer-encoding"]).toBeUndefined();
  });

  it("R-RA-1, R-GW-6: after a 429 the next credential gets the very same bytes", async () => {
    upstream.failures.push({
      status: 429,
      body: '{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}',
    });
    const body = largeBody(true);
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Read it.");
    const expected = body.replace(
      '"model":"openai/up-gpt","stream":true',
      '"stream_options":{"include_usage":true},"model":"up-gpt","stream":true',
    );
    expect(upstream.requests).toHaveLength(2);
    const [first, second] = upstream.requests;
    expect(first?.body === expected).toBe(true);
    expect(second?.body === expected).toBe(true);
    expect(first?.headers.authorization).not.toBe(second?.headers.authorization);
    for (const received of upstream.requests) {
      expect(received.headers["content-length"]).toBe(String(Buffer.byteLength(expected)));
      expect(received.headers["transfer-encoding"]).toBeUndefined();
    }
  });
});
