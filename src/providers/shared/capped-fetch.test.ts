import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackReply, type LoopbackServer } from "./__fixtures__/loopback-server.js";
import { createCappedFetch, shouldStopSdkRetry, statedWaitMs } from "./capped-fetch.js";

const completion = {
  id: "chatcmpl-ok",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o-mini",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const rateLimited = { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers `first` to the first request and a normal completion afterwards. */
async function serveThenSucceed(first: LoopbackReply): Promise<LoopbackServer> {
  server = await startLoopbackServer((request) =>
    server && server.requests.indexOf(request) === 0 ? first : { kind: "json", body: completion },
  );
  return server;
}

function openAiClient(baseUrl: string, maxWaitSeconds: number | null): OpenAI {
  return new OpenAI({ apiKey: "sk-test", baseURL: `${baseUrl}/v1`, maxRetries: 1, fetch: createCappedFetch({ maxWaitSeconds }) });
}

async function chat(client: OpenAI): Promise<unknown> {
  return client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
}

describe("createCappedFetch with the real openai SDK", () => {
  it("R-RA-1: a 429 whose Retry-After exceeds the cap surfaces at once instead of being retried", async () => {
    const upstream = await serveThenSucceed({ kind: "json", status: 429, headers: { "retry-after": "120" }, body: rateLimited });
    const started = performance.now();
    await expect(chat(openAiClient(upstream.url, 60))).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(upstream.requests).toHaveLength(1);
  });

  it("R-RA-1: a 429 without any Retry-After surfaces at once", async () => {
    const upstream = await serveThenSucceed({ kind: "json", status: 429, body: rateLimited });
    await expect(chat(openAiClient(upstream.url, 60))).rejects.toMatchObject({ status: 429 });
    expect(upstream.requests).toHaveLength(1);
  });

  it("R-RA-1: a wait within the cap is left to the SDK, which retries and succeeds", async () => {
    const upstream = await serveThenSucceed({ kind: "json", status: 429, headers: { "retry-after-ms": "20" }, body: rateLimited });
    await expect(chat(openAiClient(upstream.url, 60))).resolves.toMatchObject({ id: "chatcmpl-ok" });
    expect(upstream.requests).toHaveLength(2);
  });

  it("R-RA-1: a 503 with a short wait stays retryable", async () => {
    const upstream = await serveThenSucceed({
      kind: "json",
      status: 503,
      headers: { "retry-after-ms": "10" },
      body: { error: { message: "busy" } },
    });
    await expect(chat(openAiClient(upstream.url, 60))).resolves.toMatchObject({ id: "chatcmpl-ok" });
    expect(upstream.requests).toHaveLength(2);
  });

  it("R-RA-1: maxWaitSeconds null means no cap — the SDK's own retry policy applies (a bare 429 is retried)", async () => {
    const upstream = await serveThenSucceed({ kind: "json", status: 429, body: rateLimited });
    await expect(chat(openAiClient(upstream.url, null))).resolves.toMatchObject({ id: "chatcmpl-ok" });
    expect(upstream.requests).toHaveLength(2);
  });
});

describe("createCappedFetch with the real @anthropic-ai/sdk", () => {
  it("R-RA-1: a 529 with a 300 s Retry-After surfaces at once", async () => {
    const upstream = await serveThenSucceed({
      kind: "json",
      status: 529,
      headers: { "retry-after": "300" },
      body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
    const client = new Anthropic({
      apiKey: "sk-ant-test",
      baseURL: upstream.url,
      maxRetries: 2,
      fetch: createCappedFetch({ maxWaitSeconds: 60 }),
    });
    await expect(
      client.messages.create({ model: "claude-test-model", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toMatchObject({ status: 529 });
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("shouldStopSdkRetry", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each<{ row: string; status: number; headers: Record<string, string>; expected: boolean }>([
    { row: "429 over the cap", status: 429, headers: { "retry-after": "61" }, expected: true },
    { row: "429 at the cap", status: 429, headers: { "retry-after": "60" }, expected: false },
    { row: "429 without a hint", status: 429, headers: {}, expected: true },
    { row: "429 with retry-after-ms over the cap", status: 429, headers: { "retry-after-ms": "60001" }, expected: true },
    { row: "retry-after-ms wins over retry-after", status: 429, headers: { "retry-after-ms": "5", "retry-after": "600" }, expected: false },
    { row: "HTTP-date 2 minutes ahead", status: 503, headers: { "retry-after": "Thu, 01 Jan 2026 00:02:00 GMT" }, expected: true },
    { row: "HTTP-date 30 s ahead", status: 503, headers: { "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, expected: false },
    { row: "408 over the cap", status: 408, headers: { "retry-after": "90" }, expected: true },
    { row: "409 over the cap", status: 409, headers: { "retry-after": "90" }, expected: true },
    { row: "500 without a hint is left to the SDK", status: 500, headers: {}, expected: false },
    { row: "400 is never touched", status: 400, headers: { "retry-after": "999" }, expected: false },
    { row: "200 is never touched", status: 200, headers: { "retry-after": "999" }, expected: false },
  ])("R-RA-1: $row", ({ status, headers, expected }) => {
    expect(shouldStopSdkRetry(status, new Headers(headers), 60, now)).toBe(expected);
  });

  it("R-RA-1: no cap never stops a retry", () => {
    expect(shouldStopSdkRetry(429, new Headers(), null, now)).toBe(false);
  });

  it("an unparseable retry-after is no hint", () => {
    expect(statedWaitMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });
});
