/** SPEC R-LB-1: the AI SDK's errors are read into Detour's classifier (status, headers, body; RetryError; network). */
import { APICallError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { classifyAttemptError } from "../runner/failure.js";
import { toUpstreamFailure } from "./ai-sdk-errors.js";

const NOW = 1_700_000_000_000;

function apiCallError(fields: {
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  cause?: unknown;
  message?: string;
}) {
  return new APICallError({
    message: fields.message ?? "call failed",
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    ...fields,
  });
}

function classified(error: unknown, provider = "openai") {
  return classifyAttemptError(toUpstreamFailure(error, provider), provider, NOW);
}

describe("R-LB-1 AI SDK errors through Detour's classifier", () => {
  const rows: { name: string; error: unknown; provider?: string; reason: string; status?: number }[] = [
    {
      name: "429 with an OpenAI rate-limit body",
      error: apiCallError({
        statusCode: 429,
        responseBody: JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }),
      }),
      reason: "rate_limit",
      status: 429,
    },
    {
      name: "529 with Anthropic's overloaded body",
      error: apiCallError({
        statusCode: 529,
        responseBody: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      }),
      provider: "anthropic",
      reason: "overloaded",
      status: 529,
    },
    {
      name: "401 invalid key",
      error: apiCallError({
        statusCode: 401,
        responseBody: JSON.stringify({
          error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
        }),
      }),
      reason: "auth",
      status: 401,
    },
    {
      name: "400 whose body says the context is too long",
      error: apiCallError({
        statusCode: 400,
        responseBody: JSON.stringify({
          error: { message: "This model's maximum context length is 8192 tokens", code: "context_length_exceeded" },
        }),
      }),
      reason: "context_overflow",
      status: 400,
    },
    {
      name: "a network failure (no status, ECONNREFUSED in the cause chain)",
      error: apiCallError({
        message: "Cannot connect to API: fetch failed",
        cause: Object.assign(new TypeError("fetch failed"), {
          cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
        }),
      }),
      reason: "timeout",
    },
    {
      name: "a RetryError judged by its last error",
      error: new RetryError({
        message: "Failed after 3 attempts",
        reason: "maxRetriesExceeded",
        errors: [apiCallError({ statusCode: 500 }), apiCallError({ statusCode: 429 })],
      }),
      reason: "rate_limit",
      status: 429,
    },
  ];
  for (const row of rows) {
    it(`R-LB-1 ${row.name} → ${row.reason}`, () => {
      const verdict = classified(row.error, row.provider);
      expect(verdict.reason).toBe(row.reason);
      expect(verdict.status).toBe(row.status);
    });
  }

  it("R-LB-1 a reset stated in the response headers becomes the classification's reset time", () => {
    const verdict = classified(apiCallError({ statusCode: 429, responseHeaders: { "retry-after": "30" }, responseBody: "{}" }));
    expect(verdict.reason).toBe("rate_limit");
    expect((verdict.resetAt ?? NOW + (verdict.retryAfterMs ?? 0)) - NOW).toBe(30_000);
  });

  it("R-LB-1 an abort passes unchanged, so the caller's abort is never a failure", () => {
    const abort = new DOMException("The operation was aborted.", "AbortError");
    expect(toUpstreamFailure(abort, "openai")).toBe(abort);
  });
});
