import { afterEach, describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { createBedrockQuirks } from "../../providers/bedrock/quirks.js";
import { HttpProvider } from "../../providers/http-provider.js";
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
