import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../core/classify/index.js";
import { describeOpenAiError, describeOpenAiErrorObject } from "../openai-chat/read-error.js";
import { describeResponsesStreamError } from "../openai-responses/read-error.js";
import type { UpstreamFailure } from "../../ports/provider.js";
import { bodyResetHeaders } from "./body-reset-hints.js";
import { failureFromHttpResponse, failureFromStreamError } from "../../providers/shared/upstream-failure.js";

const NOW = Date.UTC(2026, 6, 5, 12, 0, 0);
const RESET_AT_SECONDS = NOW / 1000 + 5400;

/** What the classifier makes of a failure's fields with a fixed `now`. */
function classified(failure: UpstreamFailure) {
  return classifyFailure({ ...failure.failure, now: NOW });
}

describe("R-EC-6 resets stated in error bodies and stream events", () => {
  const rows: [string, unknown, Record<string, string> | undefined][] = [
    [
      "ChatGPT usage_limit_reached resets_at (epoch seconds)",
      { error: { type: "usage_limit_reached", resets_at: RESET_AT_SECONDS } },
      { "retry-after": new Date(RESET_AT_SECONDS * 1000).toUTCString() },
    ],
    ["resets_in_seconds", { error: { type: "usage_limit_reached", resets_in_seconds: 5400 } }, { "retry-after": "5400" }],
    [
      "resets_at as an ISO date",
      { error: { resets_at: "2026-07-05T13:30:00Z" } },
      { "retry-after": new Date(Date.UTC(2026, 6, 5, 13, 30)).toUTCString() },
    ],
    ["root-level retry_after", { message: "slow down", retry_after: 4 }, { "retry-after": "4" }],
    ["retry_after_ms", { error: { retry_after_ms: 250 } }, { "retry-after-ms": "250" }],
    [
      "Responses response.failed event",
      { type: "response.failed", response: { error: { code: "usage_limit_reached", resets_in_seconds: 60 } } },
      { "retry-after": "60" },
    ],
    ["no reset stated", { error: { message: "nope" } }, undefined],
    ["not an object", "text", undefined],
  ];
  it.each(rows)("R-EC-6: %s", (_title, body, headers) => {
    expect(bodyResetHeaders(body)).toEqual(headers);
  });

  it("R-EC-6: a 429 body's resets_at reaches the classification as an exact reset time", () => {
    const body = JSON.stringify({
      error: { type: "usage_limit_reached", message: "The usage limit has been reached", plan_type: "plus", resets_at: RESET_AT_SECONDS },
    });
    const failure = failureFromHttpResponse({ provider: "openai-codex", status: 429, headers: {}, details: describeOpenAiError(body) });
    const classification = classified(failure);
    expect(classification.reason).toBe("rate_limit");
    expect(classification.resetAt).toBe(RESET_AT_SECONDS * 1000);
  });

  it("R-EC-6: resets_in_seconds in a body is a delay from the failure", () => {
    const body = JSON.stringify({
      error: { type: "usage_limit_reached", message: "The usage limit has been reached", resets_in_seconds: 5400 },
    });
    const failure = failureFromHttpResponse({ provider: "openai-codex", status: 429, headers: {}, details: describeOpenAiError(body) });
    expect(classified(failure).resetAt).toBe(NOW + 5_400_000);
  });

  it("R-EC-6: a response header still wins over the body where both say retry-after", () => {
    const body = JSON.stringify({ error: { message: "slow down", retry_after: 30 } });
    const failure = failureFromHttpResponse({
      provider: "openai",
      status: 429,
      headers: { "retry-after": "7" },
      details: describeOpenAiError(body),
    });
    expect(classified(failure).resetAt).toBe(NOW + 7000);
  });

  it("R-EC-6: an OpenAI-dialect SSE error chunk with resets_at sets the reset", () => {
    const details = describeOpenAiErrorObject({
      message: "The usage limit has been reached",
      type: "usage_limit_reached",
      resets_at: RESET_AT_SECONDS,
    } as Parameters<typeof describeOpenAiErrorObject>[0]);
    const failure = failureFromStreamError({ provider: "openrouter", details });
    expect(classified(failure).resetAt).toBe(RESET_AT_SECONDS * 1000);
  });

  it("R-EC-6: a Codex Responses stream error event with resets_in_seconds sets the reset", () => {
    const details = describeResponsesStreamError({
      code: "usage_limit_reached",
      message: "The usage limit has been reached",
      resets_in_seconds: 600,
    });
    const failure = failureFromStreamError({ provider: "openai-codex", details });
    const classification = classified(failure);
    expect(classification.reason).toBe("rate_limit");
    expect(classification.resetAt).toBe(NOW + 600_000);
  });
});
