import { describe, expect, it } from "vitest";
import { FAILOVER_REASONS } from "../reasons.js";
import { row, testClassificationRows } from "./__fixtures__/classification-table.js";
import { CODE_RULES } from "./code-rules.js";
import { classifyFailure, explainFailure } from "./index.js";
import { ALL_MESSAGE_RULES } from "./precedence.js";
import { STATUS_RULES } from "./status-rules.js";

describe("R-EC-2 precedence", () => {
  testClassificationRows([
    row(
      "R-EC-2: context overflow beats a 429 status",
      { provider: "openai", status: 429, message: "This model's maximum context length is 8192 tokens." },
      "context_overflow",
      "context_overflow/maximum-context-length",
    ),
    row(
      "R-EC-2: content filter beats a 400 status",
      { provider: "openai", status: 400, message: "Your request was rejected as a result of our safety system." },
      "content_filter",
      "content_filter/usage-policy-flag",
    ),
    row(
      "R-EC-2: content filter beats a 401 status",
      { provider: "azure", status: 401, code: "content_filter", message: "filtered" },
      "content_filter",
      "code/content_filter",
    ),
    row(
      "R-EC-2: the status beats codes (503 with RATE_LIMITED code is overloaded)",
      { provider: "zai", status: 503, code: "RATE_LIMITED", message: "busy" },
      "overloaded",
      "status/503",
    ),
    row(
      "R-EC-2: codes beat message patterns (ECONNRESET code with quota text)",
      { provider: "openai", code: "ECONNRESET", message: "quota exceeded" },
      "timeout",
      "code/ECONNRESET",
    ),
    row(
      "R-EC-2: message patterns apply when there is no status and no code",
      { provider: "google", message: "Resource has been exhausted (e.g. check quota)." },
      "rate_limit",
      "rate_limit/resource-has-been-exhausted",
    ),
    row(
      "R-EC-2: nothing matched → unclassified with the raw preview",
      { provider: "openai", message: "The frobnicator declined politely" },
      "unclassified",
      "fallback/unclassified",
    ),
    row(
      "R-EC-2: an unknown status with nothing matched → unclassified",
      { provider: "openai", status: 409, message: "" },
      "unclassified",
      "fallback/unclassified",
    ),
    row("R-EC-2: no message and no status → empty_response", { provider: "openai" }, "empty_response", "fallback/empty-response"),
    row(
      "R-EC-2: whitespace only and no status → empty_response",
      { provider: "anthropic", message: "  \n\t " },
      "empty_response",
      "fallback/empty-response",
    ),
    row(
      "R-EC-2: an unknown code alone → empty_response",
      { provider: "openai", code: "E_WEIRD" },
      "empty_response",
      "fallback/empty-response",
    ),
    row("R-EC-2: nothing at all → empty_response", {}, "empty_response", "fallback/empty-response"),
    row(
      "R-EC-2: exactly 'Unknown error (no error details in response)' → no_error_details",
      { provider: "google", message: "Unknown error (no error details in response)" },
      "no_error_details",
      "no_error_details/exact-text",
    ),
  ]);
});

describe("R-EC-3 named precedence edge cases", () => {
  testClassificationRows([
    row(
      "R-EC-3: 401 with rate-limit text is auth",
      { provider: "anthropic", status: 401, message: "Rate limit exceeded" },
      "auth",
      "status/401-403",
    ),
    row(
      "R-EC-3: 402 with a retryable window is rate_limit",
      { provider: "openai-codex", status: 402, message: "Your weekly limit was reached. It resets on Monday." },
      "rate_limit",
      "status/402-usage-window",
    ),
    row(
      "R-EC-3: 429 with billing text is billing",
      { provider: "anthropic", status: 429, message: "Your credit balance is too low to access the Anthropic API." },
      "billing",
      "status/429-billing",
    ),
    row(
      "R-EC-3: 403 'Key limit exceeded' from OpenRouter is billing",
      { provider: "openrouter", status: 403, message: "Key limit exceeded" },
      "billing",
      "status/401-403-billing",
    ),
    row("R-EC-3: an empty 400 is unclassified", { provider: "google", status: 400 }, "unclassified", "status/400-422-empty"),
    row(
      "R-EC-3: 500 with a structured server_error is server_error",
      { provider: "openai", status: 500, message: '{"error":{"type":"server_error","message":"oops"}}' },
      "server_error",
      "status/5xx-structured",
    ),
    row(
      "R-EC-3: 500 with an HTML page is timeout",
      { provider: "openai", status: 500, message: "<html><head><title>500 Internal Server Error</title></head><body></body></html>" },
      "timeout",
      "status/5xx",
    ),
    row(
      "R-EC-5: a TPM text is never context_overflow",
      { provider: "openai", status: 429, message: "Request too large for gpt-4 on tokens per min (TPM): Limit 10000, Requested 20000." },
      "rate_limit",
      "status/429",
    ),
    row(
      "R-EC-5: 'Provider returned error' is a timeout only for OpenRouter",
      { provider: "anthropic", message: "Provider returned error" },
      "unclassified",
      "fallback/unclassified",
    ),
    row(
      "R-EC-5: 'LLM request failed with an unknown error.' is unclassified",
      { message: "LLM request failed with an unknown error." },
      "unclassified",
      "provider_scoped/llm-request-failed-unknown",
    ),
  ]);
});

describe("R-EC-7 aborts", () => {
  testClassificationRows([
    row(
      "R-EC-7: a caller abort (aborted: true) is unclassified, whatever the text",
      { provider: "openai", aborted: true, status: 429, message: "Rate limit exceeded" },
      "unclassified",
      "abort/caller",
    ),
    row(
      "R-EC-7: an AbortError is unclassified",
      { provider: "anthropic", errorType: "AbortError", message: "This operation was aborted" },
      "unclassified",
      "abort/caller",
    ),
    row(
      "R-EC-7: an ABORT_ERR code is unclassified",
      { provider: "google", code: "ABORT_ERR", message: "The operation was aborted" },
      "unclassified",
      "abort/caller",
    ),
    row(
      "R-EC-7: a watchdog timeout is a timeout",
      { provider: "ollama", errorType: "TimeoutError", message: "LLM call exceeded the 120000 ms watchdog" },
      "timeout",
      "code/TimeoutError",
    ),
    row(
      "R-EC-7: aborted: false does not make a failure an abort",
      { provider: "openai", aborted: false, message: "socket hang up" },
      "timeout",
      "timeout/socket-hang-up",
    ),
  ]);
});

describe("R-EC-1 classification result", () => {
  it("R-EC-1: returns reason, status, code and a preview", () => {
    const result = classifyFailure({
      provider: "openai",
      status: 429,
      code: "rate_limit_exceeded",
      message: "Rate limit reached for gpt-4o in organization org-abc123 on requests per min (RPM): Limit 500. Please try again in 120ms.",
    });
    expect(result).toEqual({
      reason: "rate_limit",
      status: 429,
      code: "rate_limit_exceeded",
      retryAfterMs: 120,
      preview: "Rate limit reached for gpt-4o in organization org-abc123 on requests per min (RPM): Limit 500. Please try again in 120ms.",
    });
  });

  it("R-EC-1: reads the code and status out of a raw Google body when the adapter passed none", () => {
    const result = classifyFailure({
      provider: "google",
      message: '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
    });
    expect(result).toMatchObject({ reason: "rate_limit", status: 429, code: "RESOURCE_EXHAUSTED" });
  });

  it("R-EC-1: reads the status from an SDK message prefix when the adapter passed none", () => {
    expect(
      classifyFailure({
        provider: "anthropic",
        message: '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      }),
    ).toMatchObject({
      reason: "overloaded",
      status: 529,
    });
    expect(classifyFailure({ provider: "openai", message: "429 status code (no body)" })).toMatchObject({
      reason: "rate_limit",
      status: 429,
    });
  });

  it("R-EC-1: the adapter's status wins over a status stated in the body", () => {
    expect(
      classifyFailure({ provider: "openrouter", status: 502, message: '{"error":{"message":"Provider returned error","code":429}}' }),
    ).toMatchObject({ reason: "timeout", status: 502 });
  });

  it("R-EC-6: a classification carries the provider-stated reset as resetAt and retryAfterMs", () => {
    const now = Date.UTC(2026, 0, 1);
    const result = classifyFailure({ provider: "anthropic", status: 429, message: "rate limited", headers: { "Retry-After": "30" }, now });
    expect(result).toMatchObject({ reason: "rate_limit", resetAt: now + 30_000, retryAfterMs: 30_000 });
  });

  it("R-EC-6: a Codex usage-limit body yields its absolute reset", () => {
    const result = classifyFailure({
      provider: "openai-codex",
      status: 429,
      message:
        '{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":1775317531}}',
    });
    expect(result).toMatchObject({ reason: "rate_limit", resetAt: 1_775_317_531_000 });
  });

  it("R-EC-6: reset hints inside an OpenRouter upstream body are found", () => {
    const now = 1_000_000;
    const result = classifyFailure({
      provider: "openrouter",
      status: 429,
      message:
        '{"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"{\\"error\\":{\\"message\\":\\"Please retry in 12s.\\"}}"}}}',
      now,
    });
    expect(result).toMatchObject({ reason: "rate_limit", retryAfterMs: 12_000, resetAt: now + 12_000 });
  });
});

describe("R-EC-1 the tables are data", () => {
  const messageIds = ALL_MESSAGE_RULES.map((rule) => rule.id);
  const allIds = [...messageIds, ...CODE_RULES.map((rule) => rule.id), ...STATUS_RULES.map((rule) => rule.id)];

  it("R-EC-1: every rule id is unique", () => {
    expect(allIds.filter((id, index) => allIds.indexOf(id) !== index)).toEqual([]);
  });

  it("R-EC-1: no pattern is stateful (no g or y flag), so test() gives the same answer every time", () => {
    const patterns = [
      ...ALL_MESSAGE_RULES.flatMap((rule) => [rule.pattern, rule.requires, rule.unless]),
      ...CODE_RULES.map((rule) => rule.pattern),
    ];
    expect(patterns.filter((pattern) => pattern && (pattern.global || pattern.sticky)).map(String)).toEqual([]);
  });

  it("R-EC-1: every rule decides a known FailoverReason", () => {
    const reasons = [...ALL_MESSAGE_RULES, ...CODE_RULES].map((rule) => rule.reason);
    const outcomes = STATUS_RULES.map((rule) => ("reason" in rule.then ? rule.then.reason : rule.then.messageClassOr));
    expect([...reasons, ...outcomes].filter((reason) => !(FAILOVER_REASONS as readonly string[]).includes(reason))).toEqual([]);
  });

  it("R-EC-1: explainFailure names the deciding rule and agrees with classifyFailure", () => {
    const input = { provider: "groq", status: 503, message: "Service Unavailable" };
    expect(explainFailure(input)).toEqual({ classification: classifyFailure(input), ruleId: "status/503" });
  });
});
