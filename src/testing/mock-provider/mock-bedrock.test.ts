import { afterEach, describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { createBedrockQuirks } from "../../providers/bedrock/quirks.js";
import { signAwsRequest } from "../../providers/cloud/sigv4.js";
import { HttpProvider } from "../../providers/http-provider.js";
import { AwsEventStreamDecoder, type AwsEventStreamFrame } from "../../wire/shared/aws-event-stream.js";
import { startMockProvider, type MockProvider } from "./mock-server.js";
import { MOCK_AWS_CREDENTIALS } from "./wire/bedrock-wire.js";

const CLAUDE = "anthropic.claude-sonnet-4-5-20250929-v1:0";
const [KEY_ONE, KEY_TWO] = Object.keys(MOCK_AWS_CREDENTIALS) as [string, string];

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function bedrockProvider(url: string): HttpProvider {
  const environment = { env: {}, readCredentialsFile: () => Promise.resolve(undefined), now: () => new Date() };
  return new HttpProvider({ id: "bedrock", api: "bedrock", baseUrl: url, region: "us-east-1" }, createBedrockQuirks(environment));
}

const keyOf = (accessKeyId: string, secret = MOCK_AWS_CREDENTIALS[accessKeyId]) => ({
  type: "api_key" as const,
  provider: "bedrock",
  key: `${accessKeyId}:${secret}`,
});
const request = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Hello there" }] }], maxTokens: 64 };
const context = (key: ReturnType<typeof keyOf>) => ({ model: CLAUDE, credential: key, signal: new AbortController().signal });

async function collect(stream: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const events: CanonicalStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("the mock provider's Bedrock runtime", () => {
  it("R-GW-12: serves Claude on InvokeModel, streamed in real AWS event-stream frames and whole, to a correctly signed request", async () => {
    mock = await startMockProvider({ tokenDelayMs: 0 });
    const provider = bedrockProvider(mock.url);
    const events = await collect(provider.stream(request, context(keyOf(KEY_ONE))));
    expect(events.map((event) => (event.type === "text-delta" ? event.text : "")).join("")).not.toBe("");
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    const answer = await provider.complete(request, context(keyOf(KEY_ONE)));
    expect(answer.content[0]).toMatchObject({ type: "text" });
    const recorded = mock.requests();
    expect(recorded.map((entry) => entry.path)).toEqual([
      "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
      "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke",
    ]);
    expect(recorded[0]?.body).toMatchObject({ anthropic_version: "bedrock-2023-05-31" });
    expect(recorded[0]?.headers.authorization).toBeUndefined();
  });

  it("R-GW-12: a request signed with the wrong secret is refused with Bedrock's 403, which reads as auth", async () => {
    mock = await startMockProvider();
    const failure = await bedrockProvider(mock.url)
      .complete(request, context(keyOf(KEY_ONE, "not-the-secret")))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamFailure);
    expect((failure as UpstreamFailure).failure).toMatchObject({
      status: 403,
      errorType: "InvalidSignatureException",
      message: expect.stringContaining("The request signature we calculated does not match"),
    });
    const unknown = await bedrockProvider(mock.url)
      .complete(request, context(keyOf("AKIANOTAKEY000000000", "whatever")))
      .catch((error: unknown) => error);
    expect((unknown as UpstreamFailure).failure).toMatchObject({ status: 403, errorType: "UnrecognizedClientException" });
    expect(mock.requests().map((entry) => entry.fault)).toEqual(["invalid-key", "invalid-key"]);
  });

  it("R-GW-12: throttling faults answer Bedrock's ThrottlingException, before the stream and inside it, per access key", async () => {
    mock = await startMockProvider({
      scenario: [
        { match: { key: KEY_ONE }, steps: ["rate-limit", { fault: "stream-error", error: "rate-limit", afterTokens: 1 }] },
        { match: { key: KEY_TWO }, steps: ["ok"] },
      ],
    });
    const provider = bedrockProvider(mock.url);
    const before = await collect(provider.stream(request, context(keyOf(KEY_ONE)))).catch((error: unknown) => error);
    expect((before as UpstreamFailure).failure).toMatchObject({
      status: 429,
      errorType: "ThrottlingException",
      message: "Too many requests, please wait before trying again.",
    });
    const inside = await collect(provider.stream(request, context(keyOf(KEY_ONE)))).catch((error: unknown) => error);
    expect((inside as UpstreamFailure).failure).toMatchObject({ status: 429, errorType: "ThrottlingException" });
    const other = await collect(provider.stream(request, context(keyOf(KEY_TWO))));
    expect(other.at(-1)).toMatchObject({ type: "finish" });
  });
});

const NOVA = "amazon.nova-pro-v1:0";
const novaContext = (key: ReturnType<typeof keyOf>) => ({ ...context(key), model: NOVA });

/** A request signed as the AWS SDKs sign it, sent as is: what the mock answers, byte for byte. */
function signedPost(baseUrl: string, path: string, body: unknown, accessKeyId = KEY_ONE): Promise<Response> {
  const url = `${baseUrl}${path}`;
  const text = JSON.stringify(body);
  const headers = signAwsRequest({
    method: "POST",
    url,
    headers: { "content-type": "application/json" },
    body: text,
    region: "us-east-1",
    service: "bedrock",
    credentials: { accessKeyId, secretAccessKey: MOCK_AWS_CREDENTIALS[accessKeyId] as string },
    now: new Date(),
  });
  // fetch writes the length of the body itself (the same value, signed).
  const { "Content-Length": _length, ...sent } = headers;
  return fetch(url, { method: "POST", headers: sent, body: text });
}

async function frames(response: Response): Promise<AwsEventStreamFrame[]> {
  return new AwsEventStreamDecoder().push(new Uint8Array(await response.arrayBuffer()));
}

const converseAsk = { messages: [{ role: "user", content: [{ text: "Hello there" }] }], inferenceConfig: { maxTokens: 64 } };
const NOVA_PATH = `/model/${encodeURIComponent(NOVA)}`;

describe("the mock provider's Bedrock Converse API", () => {
  it("R-GW-12: answers Converse with Bedrock's output message, stop reason and usage, and ConverseStream with its event-stream messages", async () => {
    mock = await startMockProvider({ tokenDelayMs: 0 });
    const whole = await signedPost(mock.url, `${NOVA_PATH}/converse`, converseAsk);
    expect(whole.status).toBe(200);
    const answer = (await whole.json()) as {
      output: { message: { role: string; content: { text: string }[] } };
      stopReason: string;
      usage: { inputTokens: number; outputTokens: number; totalTokens: number };
    };
    expect(answer.output.message.role).toBe("assistant");
    expect(answer.output.message.content[0]?.text).toContain(`Hello from ${NOVA}`);
    expect(answer.stopReason).toBe("end_turn");
    expect(answer.usage.totalTokens).toBe(answer.usage.inputTokens + answer.usage.outputTokens);
    expect(answer.usage.outputTokens).toBeGreaterThan(0);

    const streamed = await signedPost(mock.url, `${NOVA_PATH}/converse-stream`, converseAsk);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    const events = await frames(streamed);
    const types = events.map((frame) => (frame.kind === "event" ? frame.eventType : frame.exceptionType));
    expect(types[0]).toBe("messageStart");
    expect(new Set(types.slice(1, -3))).toEqual(new Set(["contentBlockDelta"]));
    expect(types.slice(-3)).toEqual(["contentBlockStop", "messageStop", "metadata"]);
    const text = events
      .map((frame) =>
        frame.kind === "event" && frame.eventType === "contentBlockDelta"
          ? ((frame.payload as { delta: { text?: string } }).delta.text ?? "")
          : "",
      )
      .join("");
    expect(text).toBe(answer.output.message.content[0]?.text);
    const last = events.at(-1);
    expect(last?.kind === "event" ? last.payload : undefined).toMatchObject({ usage: answer.usage });
    expect(mock.requests().map((entry) => [entry.api, entry.model, entry.stream])).toEqual([
      ["bedrock", NOVA, false],
      ["bedrock", NOVA, true],
    ]);
  });

  it("R-GW-12: the Bedrock provider reads the mock's Converse answers, whole and streamed, for a model that is not Claude", async () => {
    mock = await startMockProvider({ tokenDelayMs: 0 });
    const provider = bedrockProvider(mock.url);
    const events = await collect(provider.stream(request, novaContext(keyOf(KEY_TWO))));
    const text = events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");
    expect(text).toContain(`Hello from ${NOVA}`);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop", usage: { outputTokens: expect.any(Number) } });
    const answer = await provider.complete(request, novaContext(keyOf(KEY_TWO)));
    expect(answer.content).toEqual([{ type: "text", text }]);
    const recorded = mock.requests();
    expect(recorded.map((entry) => entry.path)).toEqual([`${NOVA_PATH}/converse-stream`, `${NOVA_PATH}/converse`]);
    expect(recorded[0]?.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Hello there" }] }],
      inferenceConfig: { maxTokens: 64 },
    });
  });

  it("R-GW-12: Converse checks the signature and Bedrock's body as InvokeModel does: a wrong secret is a 403, a model in the body a 400", async () => {
    mock = await startMockProvider();
    const failure = await bedrockProvider(mock.url)
      .complete(request, novaContext(keyOf(KEY_ONE, "not-the-secret")))
      .catch((error: unknown) => error);
    expect((failure as UpstreamFailure).failure).toMatchObject({ status: 403, errorType: "InvalidSignatureException" });
    const withModel = await signedPost(mock.url, `${NOVA_PATH}/converse`, { ...converseAsk, modelId: NOVA });
    expect(withModel.status).toBe(400);
    expect(((await withModel.json()) as { message: string }).message).toMatch(/^Malformed input request: .*modelId/);
    expect(mock.requests().map((entry) => entry.fault)).toEqual(["invalid-key", "bad-request"]);
  });

  it("R-GW-12: rules match Converse by api bedrock: ThrottlingException before the stream and inside it, Claude on the same key untouched", async () => {
    mock = await startMockProvider({
      tokenDelayMs: 0,
      scenario: [
        {
          match: { api: "bedrock", key: KEY_ONE },
          steps: ["rate-limit", { fault: "stream-error", error: "rate-limit", afterTokens: 1 }, "context-overflow"],
        },
      ],
    });
    const provider = bedrockProvider(mock.url);
    const before = await collect(provider.stream(request, novaContext(keyOf(KEY_ONE)))).catch((error: unknown) => error);
    expect((before as UpstreamFailure).failure).toMatchObject({
      status: 429,
      errorType: "ThrottlingException",
      message: "Too many requests, please wait before trying again.",
    });
    const inside = await collect(provider.stream(request, novaContext(keyOf(KEY_ONE)))).catch((error: unknown) => error);
    expect((inside as UpstreamFailure).failure).toMatchObject({ status: 429, errorType: "ThrottlingException" });
    const claude = await collect(provider.stream(request, context(keyOf(KEY_ONE))));
    expect(claude.at(-1)).toMatchObject({ type: "finish" });
    const overflow = await provider.complete(request, novaContext(keyOf(KEY_ONE))).catch((error: unknown) => error);
    expect((overflow as UpstreamFailure).failure).toMatchObject({
      status: 400,
      errorType: "ValidationException",
      message: "Input is too long for requested model.",
    });
    expect(mock.requests().map((entry) => [entry.api, entry.fault])).toEqual([
      ["bedrock", "rate-limit"],
      ["bedrock", "stream-error"],
      ["anthropic", "ok"],
      ["bedrock", "context-overflow"],
    ]);
  });
});
