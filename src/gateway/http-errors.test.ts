import { describe, expect, it } from "vitest";
import { FailoverError, FallbackSummaryError, ModelSelectionError, SeatsFullError, type AttemptRecord } from "../core/errors.js";
import { describeRunError } from "./http-errors.js";

const NOW = 1_735_689_600_000;
const attempt = (reason: AttemptRecord["reason"], provider = "openai"): AttemptRecord => ({
  provider,
  model: "m",
  reason,
  error: `${reason} happened`,
});

describe("describeRunError", () => {
  it("R-PO-8: a request no seat freed for in time is a 429 with Retry-After and DETOUR_SEATS_FULL", () => {
    const error = new SeatsFullError({ profileIds: ["anthropic:max"], why: "timed_out", waitedMs: 30_000, retryAfterMs: 5_000 });
    expect(describeRunError(error, NOW)).toMatchObject({
      status: 429,
      kind: "rate_limit",
      code: "DETOUR_SEATS_FULL",
      retryAfterSeconds: 5,
    });
    expect(error.message).toContain("anthropic:max");
    expect(error.message).toContain("gateway.queueTimeoutSeconds");
  });

  it("R-GW-4: exhaustion with only rate limits is a 429 with Retry-After from the soonest expiry", () => {
    const error = new FallbackSummaryError("All models failed (2)", {
      attempts: [attempt("rate_limit"), attempt("rate_limit", "anthropic")],
      soonestCooldownExpiry: NOW + 12_300,
    });
    expect(describeRunError(error, NOW)).toMatchObject({ status: 429, kind: "rate_limit", retryAfterSeconds: 13 });
    expect(describeRunError(error, NOW).attempts).toHaveLength(2);
  });

  it("R-GW-4: exhaustion with any other reason is a 503", () => {
    const error = new FallbackSummaryError("All models failed (2)", { attempts: [attempt("rate_limit"), attempt("overloaded")] });
    const described = describeRunError(error, NOW);
    expect(described.status).toBe(503);
    expect(described.retryAfterSeconds).toBeUndefined();
  });

  it("R-GW-4: an expiry already past still asks for at least one second", () => {
    const error = new FallbackSummaryError("x", { attempts: [attempt("rate_limit")], soonestCooldownExpiry: NOW - 5 });
    expect(describeRunError(error, NOW).retryAfterSeconds).toBe(1);
  });

  it.each([
    [{ reason: "billing" as const, status: 402 }, 402, undefined],
    [{ reason: "rate_limit" as const, status: 429, resetAt: NOW + 4_000 }, 429, 4],
    [{ reason: "format" as const, status: 400 }, 400, undefined],
    [{ reason: "timeout" as const }, 504, undefined],
    [{ reason: "auth" as const }, 502, undefined],
    [{ reason: "rate_limit" as const, resetAt: NOW + 61_000 }, 429, 61],
    [{ reason: "overloaded" as const, status: 529 }, 529, undefined],
  ])("R-GW-4: a single failure %j answers %i", (details, status, retryAfter) => {
    const described = describeRunError(new FailoverError("upstream said no", { ...details, provider: "openai", model: "m" }), NOW);
    expect(described.status).toBe(status);
    expect(described.message).toBe("upstream said no");
    expect(described.retryAfterSeconds).toBe(retryAfter);
  });

  it("R-GW-4: an unresolvable model is a 400 naming the model field", () => {
    const described = describeRunError(new ModelSelectionError({ input: "??", origin: "request model" }), NOW);
    expect(described).toMatchObject({ status: 400, param: "model" });
  });

  it("an unexpected error is a 500 that says where to look", () => {
    expect(describeRunError(new TypeError("boom"), NOW)).toMatchObject({ status: 500, kind: "internal" });
  });
});
