import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../ports/provider.js";
import { fingerprintKey, type MockScenarioSelection } from "../../testing/mock-provider/index.js";
import { encodeResponsesStream } from "../../wire/openai-responses/encode-stream.js";
import { simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { describeTransportContract } from "../shared/__fixtures__/transport-contract.js";
import { IncompatibleRequestError } from "../shared/incompatible.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { createProvider } from "../registry.js";
import { HttpProvider } from "../http-provider.js";
import { openAiResponsesQuirks } from "./quirks.js";
import { collectEvents, mockProviderPerTest } from "../shared/__fixtures__/mock-per-test.js";

const credential = { type: "api_key" as const, provider: "openai-codex", key: "sk-test-responses-0123456789" };

const startMock = mockProviderPerTest();

function provider(baseUrl: string, extra: Partial<ProviderSettings> = {}): HttpProvider {
  return new HttpProvider({ id: "openai-codex", api: "openai-responses", baseUrl: `${baseUrl}/v1`, ...extra }, openAiResponsesQuirks);
}

async function against(scenario?: MockScenarioSelection) {
  const mock = await startMock(scenario);
  return { mock, subject: provider(mock.url) };
}

const context = () => ({ model: "mock-gpt", credential, signal: new AbortController().signal });

const toolRequest = {
  messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "use the tool please" }] }],
  tools: [{ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
};

describe("the Responses provider (api openai-responses)", () => {
  it("R-GW-2: the registry builds it for api openai-responses, and it posts to <baseUrl>/responses", async () => {
    const { mock } = await against();
    const built = createProvider({ id: "openai-codex", api: "openai-responses", baseUrl: `${mock.url}/v1` });
    expect(built).toBeInstanceOf(HttpProvider);
    const answer = await built.complete(simpleRequest, context());
    expect(answer.content[0]).toMatchObject({ type: "text" });
    expect((answer.content[0] as { text: string }).text).toContain(fingerprintKey(credential.key));
    expect(answer.finishReason).toBe("stop");
    expect(answer.usage.inputTokens).toBeGreaterThan(0);
    const [sent] = mock.requests();
    expect(sent?.path).toBe("/v1/responses");
    expect(sent?.body).toEqual({
      model: "mock-gpt",
      input: [{ role: "user", content: [{ type: "input_text", text: "Say hello." }] }],
      store: false,
    });
  });

  it("R-GW-2: tool calls come back as canonical tool calls, plain and streamed", async () => {
    const { subject } = await against();
    const plain = await subject.complete(toolRequest, context());
    expect(plain.finishReason).toBe("tool_calls");
    const call = plain.content.find((part) => part.type === "tool-call");
    expect(call).toMatchObject({ name: "get_weather" });

    const events = await collectEvents(subject.stream(toolRequest, context()));
    const args = events.flatMap((event) => (event.type === "tool-call-delta" ? [event.argumentsDelta ?? ""] : [])).join("");
    expect(JSON.parse(args)).toEqual(JSON.parse((call as { arguments: string }).arguments));
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool_calls" });
  });

  it("R-ST-2: a streamed answer ends at response.completed with usage", async () => {
    const { subject } = await against();
    const events = await collectEvents(subject.stream(simpleRequest, context()));
    expect(events[0]).toMatchObject({ type: "message-start", model: "mock-gpt" });
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
    expect(text).toContain("Say hello.");
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop", usage: { inputTokens: expect.any(Number) } });
  });

  it("R-ST-2: an in-band error event is an UpstreamFailure the classifier reads; a missing end is a cut stream", async () => {
    const { subject } = await against([
      {
        steps: [
          { fault: "stream-error", error: "rate-limit", afterTokens: 1 },
          { fault: "stream-cut", afterTokens: 2 },
        ],
      },
    ]);
    const failed = await collectEvents(subject.stream(simpleRequest, context())).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UpstreamFailure);
    expect((failed as UpstreamFailure).failure.code).toBe("rate_limit_exceeded");
    const cut = await collectEvents(subject.stream(simpleRequest, context())).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(UpstreamFailure);
  });

  it("R-GW-6: a field the Responses API cannot carry fails before any call", async () => {
    const { subject, mock } = await against();
    const request = { ...simpleRequest, stop: ["END"] };
    await expect(subject.complete(request, context())).rejects.toBeInstanceOf(IncompatibleRequestError);
    expect(mock.counts().total).toBe(0);
  });
});

const completeStream = encodeResponsesStream(
  [
    { type: "message-start", id: "resp_t", model: "mock-gpt" },
    { type: "text-delta", text: "Hello " },
    { type: "text-delta", text: "there" },
    { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2 } },
  ],
  { createdSeconds: 1 },
);

describeTransportContract({
  // The contract names the provider by its id: the built-in Codex entry, on the Responses API.
  name: "openai-codex",
  create: (baseUrl, extra) => provider(baseUrl, extra),
  model: "mock-gpt",
  credential,
  streamContentType: "text/event-stream",
  unfinishedStream: completeStream.slice(0, -1).join(""),
  completeStream: completeStream.join(""),
  rateLimitBody: { error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" } },
});
