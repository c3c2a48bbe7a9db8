import { describe, expect, it } from "vitest";
import { BEDROCK_ANTHROPIC_VERSION, bedrockUrl, toBedrockAnthropicRequest } from "./bedrock-request.js";

describe("Bedrock requests", () => {
  it.each([
    ["invoke", "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke"],
    [
      "invoke-with-response-stream",
      "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
    ],
    ["converse", "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse"],
    [
      "converse-stream",
      "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream",
    ],
  ] as const)("R-GW-12 the %s URL puts the encoded model id in one path segment", (operation, expected) => {
    expect(bedrockUrl({ region: "us-east-1", modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0", operation })).toBe(expected);
  });

  it("R-GW-12 an inference-profile ARN stays one path segment and a base URL override is honoured", () => {
    expect(
      bedrockUrl({
        region: "eu-west-1",
        modelId: "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-haiku-4-5-v1:0",
        operation: "converse",
        baseUrl: "http://127.0.0.1:9999/",
      }),
    ).toBe(
      "http://127.0.0.1:9999/model/arn%3Aaws%3Abedrock%3Aeu-west-1%3A123456789012%3Ainference-profile%2Feu.anthropic.claude-haiku-4-5-v1%3A0/converse",
    );
  });

  it("R-GW-12 the Anthropic body moves the model to the URL, adds Bedrock's version and carries everything else", () => {
    const messagesBody = {
      model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
      max_tokens: 1024,
      system: [{ type: "text", text: "be brief", cache_control: { type: "ephemeral" } }],
      thinking: { type: "enabled", budget_tokens: 512 },
      tools: [{ name: "get_weather", input_schema: { type: "object", properties: {} } }],
      tool_choice: { type: "auto" },
      messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }],
      a_future_field: { kept: true },
    };
    const request = toBedrockAnthropicRequest(messagesBody);
    const { model: _model, ...rest } = messagesBody;
    expect(request).toEqual({
      modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0",
      operation: "invoke",
      body: { ...rest, anthropic_version: BEDROCK_ANTHROPIC_VERSION },
    });
    expect(BEDROCK_ANTHROPIC_VERSION).toBe("bedrock-2023-05-31");
    expect(messagesBody.model).toBe("anthropic.claude-sonnet-4-5-20250929-v1:0");
  });

  it("R-GW-12 a streamed request picks InvokeModelWithResponseStream and drops the stream flag Bedrock refuses", () => {
    const request = toBedrockAnthropicRequest(
      { model: "claude-sonnet-4-6", stream: true, max_tokens: 8, messages: [] },
      { modelId: "global.anthropic.claude-sonnet-4-6", betas: ["interleaved-thinking-2025-05-14,context-1m-2025-08-07"] },
    );
    expect(request.operation).toBe("invoke-with-response-stream");
    expect(request.modelId).toBe("global.anthropic.claude-sonnet-4-6");
    expect(request.body).toEqual({
      max_tokens: 8,
      messages: [],
      anthropic_version: "bedrock-2023-05-31",
      anthropic_beta: ["interleaved-thinking-2025-05-14", "context-1m-2025-08-07"],
    });
  });

  it("R-GW-12 a client's own anthropic_version is kept and a body without a model is refused", () => {
    expect(toBedrockAnthropicRequest({ model: "m", anthropic_version: "bedrock-2099-01-01" }).body.anthropic_version).toBe(
      "bedrock-2099-01-01",
    );
    expect(() => toBedrockAnthropicRequest({ messages: [] })).toThrow(/model id/);
  });
});
