import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { CanonicalFinishReason, CanonicalResponse } from "../../ports/canonical.js";
import { cannedFetch, UNUSED_BASE_URL } from "../__fixtures__/sdk-fetch.js";
import { anthropicErrorTypeForStatus, anthropicStreamErrorFrame, renderAnthropicError, renderAnthropicValidationError } from "./errors.js";
import { ANTHROPIC_TO_CANONICAL_STOP_REASON, CANONICAL_TO_ANTHROPIC_STOP_REASON, type AnthropicStopReason } from "./finish-reasons.js";
import { renderAnthropicMessage, toolInputFromArguments } from "./encode-response.js";

const response: CanonicalResponse = {
  id: "msg_1",
  model: "openai/gpt-x",
  content: [
    { type: "text", text: "Checking." },
    { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
  ],
  finishReason: "tool_calls",
  usage: { inputTokens: 7, outputTokens: 2 },
};

const request = { model: "x", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };

describe("renderAnthropicMessage", () => {
  it("R-GW-2: renders text, tool_use with parsed input, stop_reason and usage; R-ST-3: model is who answered", () => {
    expect(renderAnthropicMessage(response)).toEqual({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "openai/gpt-x",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "call_1", name: "lookup", input: { q: "x" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 7, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  const inputs: [string, unknown][] = [
    ["", {}],
    ['{"a":1}', { a: 1 }],
    ["[1,2]", { arguments: "[1,2]" }],
    ['{"a":', { arguments: '{"a":' }],
  ];
  for (const [args, input] of inputs) {
    it(`R-GW-2: tool arguments ${JSON.stringify(args)} become input ${JSON.stringify(input)}`, () => {
      expect(toolInputFromArguments(args)).toEqual(input);
    });
  }

  it("R-GW-2: the real Anthropic SDK reads the rendered JSON", async () => {
    const { fetch } = cannedFetch({ body: JSON.stringify(renderAnthropicMessage(response)) });
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: UNUSED_BASE_URL, fetch, maxRetries: 0 });
    const message = await client.messages.create(request);
    expect(message.content[1]).toMatchObject({ type: "tool_use", input: { q: "x" } });
  });
});

describe("Anthropic stop reasons", () => {
  for (const [dialect, canonical] of Object.entries(ANTHROPIC_TO_CANONICAL_STOP_REASON)) {
    it(`R-GW-2: ${dialect} → ${canonical}`, () => {
      expect(ANTHROPIC_TO_CANONICAL_STOP_REASON[dialect as AnthropicStopReason]).toBe(canonical);
    });
  }
  it("R-GW-2: every canonical reason except error round-trips through the Anthropic table", () => {
    for (const reason of Object.keys(CANONICAL_TO_ANTHROPIC_STOP_REASON) as CanonicalFinishReason[]) {
      if (reason === "error") continue;
      expect(ANTHROPIC_TO_CANONICAL_STOP_REASON[CANONICAL_TO_ANTHROPIC_STOP_REASON[reason]]).toBe(reason);
    }
  });
});

describe("Anthropic error bodies (R-GW-4)", () => {
  const statusRows: [number, string][] = [
    [400, "invalid_request_error"],
    [401, "authentication_error"],
    [402, "billing_error"],
    [403, "permission_error"],
    [404, "not_found_error"],
    [413, "request_too_large"],
    [429, "rate_limit_error"],
    [500, "api_error"],
    [503, "overloaded_error"],
    [529, "overloaded_error"],
    [418, "invalid_request_error"],
    [502, "api_error"],
  ];
  for (const [status, type] of statusRows) {
    it(`R-GW-4: status ${status} → type ${type}`, () => {
      expect(anthropicErrorTypeForStatus(status)).toBe(type);
    });
  }

  it("R-GW-4: error bodies have Anthropic's shape and the SDK reads them", async () => {
    const body = renderAnthropicError({ status: 503, message: "Every model is unavailable." });
    expect(body).toEqual({ type: "error", error: { type: "overloaded_error", message: "Every model is unavailable." } });
    const { fetch } = cannedFetch({ status: 503, body: JSON.stringify(body) });
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: UNUSED_BASE_URL, fetch, maxRetries: 0 });
    const failure = await client.messages.create(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure).toMatchObject({ status: 503, error: body });
  });

  it("R-GW-4: validation errors name the path", () => {
    expect(renderAnthropicValidationError([{ path: "messages[1].content", message: "Invalid input" }])).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "messages[1].content: Invalid input" },
    });
  });

  it("R-ST-2: the stream error frame is an `event: error` SSE event", () => {
    expect(anthropicStreamErrorFrame({ status: 429, message: "slow down" })).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}\n\n',
    );
  });
});
