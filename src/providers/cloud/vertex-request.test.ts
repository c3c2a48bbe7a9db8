import { describe, expect, it } from "vitest";
import {
  VERTEX_ANTHROPIC_VERSION,
  toVertexAnthropicRequest,
  vertexAnthropicUrl,
  vertexBaseUrl,
  vertexGeminiUrl,
} from "./vertex-request.js";

const address = { project: "acme-prod", location: "europe-west4", model: "gemini-3-pro-preview" };

describe("Vertex requests", () => {
  it("R-GW-12 regional and global locations have their own hosts", () => {
    expect(vertexBaseUrl("us-east5")).toBe("https://us-east5-aiplatform.googleapis.com/v1");
    expect(vertexBaseUrl("global")).toBe("https://aiplatform.googleapis.com/v1");
  });

  it.each([
    [
      false,
      "https://europe-west4-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/gemini-3-pro-preview:generateContent",
    ],
    [
      true,
      "https://europe-west4-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    ],
  ])("R-GW-12 a Gemini call (stream %s) targets generateContent or streamGenerateContent", (stream, expected) => {
    expect(vertexGeminiUrl(address, stream)).toBe(expected);
  });

  it.each([
    [
      false,
      "https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4-6:rawPredict",
    ],
    [
      true,
      "https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4-6:streamRawPredict",
    ],
  ])("R-GW-12 a Claude call (stream %s) targets rawPredict or streamRawPredict", (stream, expected) => {
    expect(vertexAnthropicUrl({ project: "acme-prod", location: "global", model: "claude-sonnet-4-6" }, stream)).toBe(expected);
  });

  it("R-GW-12 the Anthropic body moves the model to the URL, adds Vertex's version and carries everything else", () => {
    const messagesBody = {
      model: "claude-sonnet-4-5@20250929",
      stream: true,
      max_tokens: 256,
      thinking: { type: "enabled", budget_tokens: 128 },
      tools: [{ name: "lookup", input_schema: { type: "object" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }],
    };
    const request = toVertexAnthropicRequest(messagesBody, {
      project: "acme-prod",
      location: "us-east5",
      baseUrl: "http://127.0.0.1:7777/v1",
    });
    const { model: _model, ...rest } = messagesBody;
    expect(request).toEqual({
      url: "http://127.0.0.1:7777/v1/projects/acme-prod/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
      body: { ...rest, anthropic_version: VERTEX_ANTHROPIC_VERSION },
    });
    expect(VERTEX_ANTHROPIC_VERSION).toBe("vertex-2023-10-16");
  });

  it("R-GW-12 a configured Vertex model id wins over the body's model and a missing model is refused", () => {
    const request = toVertexAnthropicRequest(
      { model: "claude-sonnet-4-6", messages: [] },
      { project: "p", location: "global", model: "claude-opus-4-6" },
    );
    expect(request.url).toMatch(/models\/claude-opus-4-6:rawPredict$/);
    expect(() => toVertexAnthropicRequest({ messages: [] }, { project: "p", location: "global" })).toThrow(/model id/);
  });
});
