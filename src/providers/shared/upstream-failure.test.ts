import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../ports/provider.js";
import { failureFromHttpResponse, failureFromNetworkError, redactSecrets } from "./upstream-failure.js";

const live = new AbortController().signal;

function withCode(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code });
}

describe("failureFromNetworkError", () => {
  it.each([
    {
      row: "undici socket error (cut body)",
      error: withCode("other side closed", "UND_ERR_SOCKET"),
      code: "ECONNRESET",
      message: /stream closed/,
    },
    { row: "plain ECONNRESET", error: withCode("read ECONNRESET", "ECONNRESET"), code: "ECONNRESET", message: /stream closed/ },
    { row: "refused", error: withCode("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"), code: "ECONNREFUSED", message: /ECONNREFUSED/ },
    {
      row: "headers timeout",
      error: withCode("Headers Timeout Error", "UND_ERR_HEADERS_TIMEOUT"),
      code: "UND_ERR_HEADERS_TIMEOUT",
      message: /Timeout/,
    },
    {
      row: "code on the cause",
      error: new Error("fetch failed", { cause: withCode("getaddrinfo EAI_AGAIN", "EAI_AGAIN") }),
      code: "EAI_AGAIN",
      message: /fetch failed/,
    },
    { row: "no code at all", error: new Error("something odd"), code: undefined, message: /something odd/ },
  ])("$row", ({ error, code, message }) => {
    const failure = failureFromNetworkError(error, { provider: "p", signal: live });
    expect(failure).toBeInstanceOf(UpstreamFailure);
    expect((failure as UpstreamFailure).failure.code).toBe(code);
    expect((failure as UpstreamFailure).failure.message).toMatch(message);
    expect((failure as UpstreamFailure).failure.provider).toBe("p");
  });

  it("R-EC-7: a caller abort is returned as the signal's reason, never as an UpstreamFailure", () => {
    const controller = new AbortController();
    controller.abort();
    const result = failureFromNetworkError(withCode("aborted", "UND_ERR_ABORTED"), { provider: "p", signal: controller.signal });
    expect(result).not.toBeInstanceOf(UpstreamFailure);
    expect(result.name).toBe("AbortError");
  });

  it("passes an UpstreamFailure through unchanged", () => {
    const original = new UpstreamFailure("x", { provider: "p", status: 500 });
    expect(failureFromNetworkError(original, { provider: "p", signal: live })).toBe(original);
  });
});

describe("failureFromHttpResponse", () => {
  it("keeps an empty body empty (the classifier treats an empty 400 differently) and response headers win over hints", () => {
    const failure = failureFromHttpResponse({
      provider: "p",
      status: 400,
      headers: { "retry-after": "5" },
      details: { message: "", hintHeaders: { "retry-after": "99", "retry-after-ms": "1000" } },
    });
    expect(failure.failure).toMatchObject({ status: 400, message: "", headers: { "retry-after": "5", "retry-after-ms": "1000" } });
    expect(failure.message).toBe("p answered HTTP 400: (empty body)");
  });
});

describe("redactSecrets", () => {
  it("removes every occurrence of long secrets and ignores short or missing ones", () => {
    expect(redactSecrets("key sk-abcdef123456 then sk-abcdef123456 ok", ["sk-abcdef123456", "ok", undefined])).toBe(
      "key [redacted] then [redacted] ok",
    );
  });
});
