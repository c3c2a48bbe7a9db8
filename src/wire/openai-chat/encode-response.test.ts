import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CanonicalFinishReason, CanonicalResponse } from "../../ports/canonical.js";
import { cannedFetch, UNUSED_BASE_URL } from "../__fixtures__/sdk-fetch.js";
import { openAIErrorTypeForStatus, renderOpenAIError, renderOpenAIValidationError } from "./errors.js";
import { CANONICAL_TO_OPENAI_FINISH_REASON, OPENAI_TO_CANONICAL_FINISH_REASON, type OpenAIFinishReason } from "./finish-reasons.js";
import { renderOpenAIChatCompletion } from "./encode-response.js";

const response: CanonicalResponse = {
  id: "resp-1",
  model: "google/gemini-x",
  content: [
    { type: "text", text: "Let me look." },
    { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
  ],
  finishReason: "tool_calls",
  usage: { inputTokens: 12, outputTokens: 3 },
};

describe("renderOpenAIChatCompletion", () => {
  it("R-GW-2: renders text, tool calls, finish reason and usage; R-ST-3: model is who answered", () => {
    expect(renderOpenAIChatCompletion(response, { createdSeconds: 100 })).toEqual({
      id: "resp-1",
      object: "chat.completion",
      created: 100,
      model: "google/gemini-x",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Let me look.",
            refusal: null,
            tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }],
          },
          logprobs: null,
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
  });

  it("R-GW-2: a pure tool-call turn has null content, as OpenAI sends it", () => {
    const rendered = renderOpenAIChatCompletion({ ...response, content: [response.content[1]!] }, { createdSeconds: 100 });
    expect(rendered.choices[0]?.message.content).toBeNull();
  });

  it("R-GW-2: the real OpenAI SDK reads the rendered JSON", async () => {
    const { fetch } = cannedFetch({ body: JSON.stringify(renderOpenAIChatCompletion(response, { createdSeconds: 100 })) });
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${UNUSED_BASE_URL}/v1`, fetch, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "x", messages: [{ role: "user", content: "hi" }] });
    expect(completion.model).toBe("google/gemini-x");
    expect(completion.usage?.total_tokens).toBe(15);
  });
});

describe("OpenAI finish reasons", () => {
  for (const [dialect, canonical] of Object.entries(OPENAI_TO_CANONICAL_FINISH_REASON)) {
    it(`R-GW-2: ${dialect} → ${canonical}`, () => {
      expect(OPENAI_TO_CANONICAL_FINISH_REASON[dialect as OpenAIFinishReason]).toBe(canonical);
    });
  }
  it("R-GW-2: every canonical reason except error round-trips through the OpenAI table", () => {
    for (const reason of Object.keys(CANONICAL_TO_OPENAI_FINISH_REASON) as CanonicalFinishReason[]) {
      if (reason === "error") continue;
      expect(OPENAI_TO_CANONICAL_FINISH_REASON[CANONICAL_TO_OPENAI_FINISH_REASON[reason]]).toBe(reason);
    }
  });
});

describe("OpenAI error bodies (R-GW-4)", () => {
  const statusRows: [number, string][] = [
    [400, "invalid_request_error"],
    [401, "authentication_error"],
    [403, "permission_error"],
    [404, "not_found_error"],
    [413, "invalid_request_error"],
    [429, "rate_limit_error"],
    [500, "server_error"],
    [503, "server_error"],
    [418, "invalid_request_error"],
    [599, "server_error"],
  ];
  for (const [status, type] of statusRows) {
    it(`R-GW-4: status ${status} → type ${type}`, () => {
      expect(openAIErrorTypeForStatus(status)).toBe(type);
    });
  }

  it("R-GW-4: error bodies have OpenAI's shape and the SDK reads them", async () => {
    const body = renderOpenAIError({ status: 429, message: "All profiles are rate limited.", code: "rate_limited" });
    expect(body).toEqual({
      error: { message: "All profiles are rate limited.", type: "rate_limit_error", param: null, code: "rate_limited" },
    });
    const { fetch } = cannedFetch({ status: 429, body: JSON.stringify(body), headers: { "retry-after": "3" } });
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${UNUSED_BASE_URL}/v1`, fetch, maxRetries: 0 });
    const failure = await client.chat.completions.create({ model: "x", messages: [] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failure).toMatchObject({ code: "rate_limited", message: expect.stringContaining("rate limited") });
  });

  it("R-GW-4: validation errors name the path in the message and in param", () => {
    const body = renderOpenAIValidationError([
      { path: "messages[2].content", message: "Invalid input" },
      { path: "model", message: "model is required" },
    ]);
    expect(body.error).toEqual({
      message: "Invalid request: messages[2].content: Invalid input; model: model is required",
      type: "invalid_request_error",
      param: "messages[2].content",
      code: "invalid_request",
    });
  });
});
