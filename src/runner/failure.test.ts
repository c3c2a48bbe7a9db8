import { describe, expect, it } from "vitest";
import { FailoverError } from "../core/errors.js";
import { UpstreamFailure } from "../ports/provider.js";
import { callerAbortError, classifyAttemptError, failureInputOf } from "./failure.js";

describe("attempt failures", () => {
  it("extracts status, code, type, message and headers from an SDK-style error", () => {
    const error = Object.assign(new Error("429 Rate limit reached"), {
      status: 429,
      error: { type: "rate_limit_error", code: "rate_limit_exceeded" },
      headers: new Headers({ "Retry-After": "7" }),
    });
    expect(failureInputOf(error, "openai", 1_000)).toEqual({
      provider: "openai",
      now: 1_000,
      status: 429,
      code: "rate_limit_exceeded",
      errorType: "rate_limit_error",
      message: "429 Rate limit reached",
      headers: { "retry-after": "7" },
    });
  });

  it("reads a network code from the cause, and non-errors as text", () => {
    const fetchFailed = new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) });
    expect(failureInputOf(fetchFailed, "ollama", 0)).toMatchObject({ code: "ECONNREFUSED", message: "fetch failed" });
    expect(failureInputOf("boom", "x", 0)).toMatchObject({ message: "boom" });
    expect(classifyAttemptError(fetchFailed, "ollama", 0).reason).toBe("timeout");
  });

  it("keeps an UpstreamFailure's fields and a FailoverError's verdict", () => {
    const upstream = new UpstreamFailure("Overloaded", { status: 529 });
    expect(classifyAttemptError(upstream, "anthropic", 0)).toMatchObject({ reason: "overloaded", status: 529 });
    const nested = new FailoverError("nested", { reason: "billing", status: 402, resetAt: 99 });
    expect(classifyAttemptError(nested, "openai", 0)).toEqual({ reason: "billing", status: 402, resetAt: 99, preview: "nested" });
  });

  it("R-EC-7: a caller abort surfaces the signal's own reason", () => {
    const controller = new AbortController();
    controller.abort();
    expect((callerAbortError(controller.signal) as Error).name).toBe("AbortError");
  });
});
