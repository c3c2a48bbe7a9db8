import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  NOTICE_REASON_MAX_CHARS,
  decodeNoticeHeader,
  encodeNoticeHeader,
  fallbackReason,
  formatNotice,
  type NoticeAttempt,
} from "./notices.js";

const fallback = (attempts: readonly NoticeAttempt[]) =>
  formatNotice({ kind: "fallback", selected: "anthropic/claude-opus-4-6", active: "openai/gpt-4o", attempts });

describe("formatNotice", () => {
  it("R-NT-1: fallback notice has the exact shape with the first reason, underscores as spaces", () => {
    expect(fallback([{ reason: "model_not_found", status: 404, error: "model: claude-opus-4-6" }])).toBe(
      "↪️ Model Fallback: openai/gpt-4o (selected anthropic/claude-opus-4-6; model not found)",
    );
  });

  it("R-NT-1: cleared notice has the exact shape", () => {
    expect(formatNotice({ kind: "cleared", selected: "anthropic/claude-opus-4-6", previous: "openai/gpt-4o" })).toBe(
      "↪️ Model Fallback cleared: anthropic/claude-opus-4-6 (was openai/gpt-4o)",
    );
  });

  it("R-NT-1: cleared notice without a distinct previous model omits the `was` part", () => {
    expect(formatNotice({ kind: "cleared", selected: "anthropic/claude-opus-4-6", previous: "" })).toBe(
      "↪️ Model Fallback cleared: anthropic/claude-opus-4-6",
    );
    expect(formatNotice({ kind: "cleared", selected: "anthropic/claude-opus-4-6", previous: "anthropic/claude-opus-4-6" })).toBe(
      "↪️ Model Fallback cleared: anthropic/claude-opus-4-6",
    );
  });

  it("R-NT-1: more than one attempt adds `(+N more attempts)`", () => {
    expect(fallback([{ reason: "billing" }, { reason: "auth" }, { reason: "timeout" }])).toBe(
      "↪️ Model Fallback: openai/gpt-4o (selected anthropic/claude-opus-4-6; billing (+2 more attempts))",
    );
  });

  it("R-NT-1: no attempts (e.g. every profile was in cooldown) still says why", () => {
    expect(fallbackReason([])).toBe("selected model unavailable");
  });
});

describe("fallbackReason", () => {
  it.each<[string, NoticeAttempt, string]>([
    [
      "transient with status → status line",
      { reason: "rate_limit", status: 429, error: "Rate limit reached for org-abc123" },
      "429 Too Many Requests",
    ],
    ["overloaded 503", { reason: "overloaded", status: 503 }, "503 Service Unavailable"],
    ["server error 500", { reason: "server_error", status: 500, error: "oops" }, "500 Internal Server Error"],
    ["gateway timeout", { reason: "timeout", status: 504 }, "504 Gateway Timeout"],
    ["status without a standard phrase keeps the reason", { reason: "overloaded", status: 529, error: "Overloaded" }, "529 overloaded"],
    [
      "transient without status shows a timing preview",
      { reason: "rate_limit", error: "You have hit your usage limit.\nTry again in 3 hours." },
      "You have hit your usage limit. Try again in 3 hours.",
    ],
    ["transient preview without timing words falls back to the reason", { reason: "timeout", error: "socket hang up" }, "timeout"],
    ["unknown error text is never shown", { reason: "unclassified", error: "An unknown error occurred, try again" }, "unclassified"],
    ["permanent reasons never echo provider text", { reason: "auth", status: 401, error: "Incorrect API key provided: sk-abc…" }, "auth"],
    [
      "billing with status shows only the reason",
      { reason: "billing", status: 402, error: "insufficient credits for account 42" },
      "billing",
    ],
    ["no reason, status known", { status: 418 }, "HTTP 418"],
    ["no reason, no status, error only", { error: "  connection\treset  " }, "connection reset"],
    ["nothing at all", {}, "unknown error"],
    ["invalid status is ignored", { reason: "rate_limit", status: 42 }, "rate limit"],
  ])("R-NT-1: %s", (_title, attempt, expected) => {
    expect(fallbackReason([attempt])).toBe(expected);
  });

  it("R-NT-1: the reason is cut to 80 characters with … before the more-attempts suffix", () => {
    const long = `rate limit exceeded, try again in 5 minutes ${"x".repeat(200)}`;
    const reason = fallbackReason([{ reason: "rate_limit", error: long }, { reason: "timeout" }]);
    const [cut, suffix] = reason.split(" (+");
    expect(Array.from(cut ?? "")).toHaveLength(NOTICE_REASON_MAX_CHARS);
    expect(cut?.endsWith("…")).toBe(true);
    expect(suffix).toBe("1 more attempts)");
  });

  it("R-NT-1: cutting never splits an emoji into a lone surrogate", () => {
    const reason = fallbackReason([{ reason: "rate_limit", error: `try again in 1 minute ${"😀".repeat(100)}` }]);
    expect(Array.from(reason)).toHaveLength(NOTICE_REASON_MAX_CHARS);
    expect(() => encodeURIComponent(reason)).not.toThrow();
  });
});

describe("notices as header values", () => {
  it("R-NT-2: a notice is one line even when parts contain line breaks or control characters", () => {
    const notice = formatNotice({
      kind: "fallback",
      selected: "anthropic/claude\r\nX-Injected: 1",
      active: "openai/gpt-4o",
      attempts: [{ error: "line one\nline two\u0000" }],
    });
    expect(notice).not.toMatch(/[\r\n\u0000]/);
    expect(notice).toBe("↪️ Model Fallback: openai/gpt-4o (selected anthropic/claude X-Injected: 1; line one line two)");
  });

  it("R-NT-2: the header encoding is UTF-8 percent-encoding and round-trips", () => {
    const notice = formatNotice({ kind: "cleared", selected: "anthropic/claude-opus-4-6", previous: "openai/gpt-4o" });
    const header = encodeNoticeHeader(notice);
    expect(header.startsWith("%E2%86%AA%EF%B8%8F%20Model%20Fallback%20cleared%3A%20")).toBe(true);
    expect(decodeNoticeHeader(header)).toBe(notice);
  });

  it("R-NT-2: encoded notices contain only header-safe ASCII for any input (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.string(), (selected, active, error) => {
        const notice = formatNotice({ kind: "fallback", selected, active, attempts: [{ reason: "rate_limit", error }] });
        const header = encodeNoticeHeader(notice);
        expect(header).toMatch(/^[A-Za-z0-9\-_.!~*'()%]*$/);
        expect(decodeNoticeHeader(header).startsWith("↪️ Model Fallback: ")).toBe(true);
      }),
    );
  });

  it("R-NT-2: a lone surrogate is replaced instead of making the encoder throw", () => {
    expect(decodeNoticeHeader(encodeNoticeHeader("a\uD800b"))).toBe("a\uFFFDb");
    expect(decodeNoticeHeader(encodeNoticeHeader("a\uDC00"))).toBe("a\uFFFD");
    expect(decodeNoticeHeader(encodeNoticeHeader("ok 😀"))).toBe("ok 😀");
  });
});
