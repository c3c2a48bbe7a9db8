import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { parseCalendarDate, parseDurationMs, parseResetHints } from "./retry-after.js";

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);

describe("R-EC-6 reset hints from headers", () => {
  it("R-EC-6: retry-after-ms is a relative wait in milliseconds", () => {
    expect(parseResetHints({ "retry-after-ms": "1500" }, "", NOW)).toEqual({ resetAt: NOW + 1500, retryAfterMs: 1500 });
  });

  it("R-EC-6: retry-after in seconds (decimal too)", () => {
    expect(parseResetHints({ "retry-after": "30" }, "", NOW)).toEqual({ resetAt: NOW + 30_000, retryAfterMs: 30_000 });
    expect(parseResetHints({ "retry-after": "0.5" }, "", NOW)).toEqual({ resetAt: NOW + 500, retryAfterMs: 500 });
  });

  it("R-EC-6: retry-after as an HTTP date is absolute", () => {
    expect(parseResetHints({ "retry-after": "Mon, 05 Jan 2026 12:02:00 GMT" }, "", NOW)).toEqual({
      resetAt: NOW + 120_000,
      retryAfterMs: 120_000,
    });
    expect(parseResetHints({ "retry-after": "Mon, 05 Jan 2026 12:02:00 GMT" }, "")).toEqual({ resetAt: NOW + 120_000 });
  });

  it("R-EC-6: without now, a relative hint stays relative", () => {
    expect(parseResetHints({ "retry-after": "7" }, "")).toEqual({ retryAfterMs: 7000 });
  });

  it("R-EC-6: header names are case-insensitive and values may be arrays or numbers", () => {
    expect(parseResetHints({ "Retry-After": ["5", "9"] }, "", NOW)).toEqual({ resetAt: NOW + 9000, retryAfterMs: 9000 });
    expect(parseResetHints({ "RETRY-AFTER-MS": 250 }, "", NOW)).toEqual({ resetAt: NOW + 250, retryAfterMs: 250 });
  });

  it("R-EC-6: Headers, Map, [name, value] tuples and Node raw header arrays are all read", () => {
    const expected = { resetAt: NOW + 3000, retryAfterMs: 3000 };
    expect(parseResetHints(new Headers({ "Retry-After": "3" }), "", NOW)).toEqual(expected);
    expect(parseResetHints(new Map([["retry-after", "3"]]), "", NOW)).toEqual(expected);
    expect(parseResetHints([["Retry-After", "3"]], "", NOW)).toEqual(expected);
    expect(parseResetHints(["Content-Type", "application/json", "Retry-After", "3"], "", NOW)).toEqual(expected);
  });

  const durations: readonly [string, number][] = [
    ["6m0s", 360_000],
    ["1.5s", 1500],
    ["20ms", 20],
    ["1h2m3s", 3_723_000],
    ["2m59.56s", 179_560],
    ["0s", 0],
  ];
  for (const [value, ms] of durations) {
    it(`R-EC-6: x-ratelimit-reset-requests duration ${value} is ${ms} ms`, () => {
      expect(parseResetHints({ "x-ratelimit-reset-requests": value }, "", NOW)).toEqual({ resetAt: NOW + ms, retryAfterMs: ms });
    });
  }

  it("R-EC-6: x-ratelimit-reset-tokens duration", () => {
    expect(parseResetHints({ "x-ratelimit-reset-tokens": "7.66s" }, "", NOW)).toEqual({ resetAt: NOW + 7660, retryAfterMs: 7660 });
  });

  it("R-EC-6: when both buckets are reported, the latest reset wins", () => {
    const headers = { "x-ratelimit-reset-requests": "1s", "x-ratelimit-reset-tokens": "6m0s" };
    expect(parseResetHints(headers, "", NOW)).toEqual({ resetAt: NOW + 360_000, retryAfterMs: 360_000 });
  });

  it("R-EC-6: only exhausted buckets apply when a bucket reports zero remaining", () => {
    const headers = {
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "2s",
      "x-ratelimit-remaining-tokens": "148000",
      "x-ratelimit-reset-tokens": "6m0s",
    };
    expect(parseResetHints(headers, "", NOW)).toEqual({ resetAt: NOW + 2000, retryAfterMs: 2000 });
  });

  it("R-EC-6: anthropic-ratelimit-*-reset RFC 3339 timestamps", () => {
    const headers = {
      "anthropic-ratelimit-requests-reset": "2026-01-05T12:00:20Z",
      "anthropic-ratelimit-tokens-reset": "2026-01-05T12:01:00Z",
      "anthropic-ratelimit-input-tokens-reset": "2026-01-05T13:00:30+01:00",
    };
    expect(parseResetHints(headers, "", NOW)).toEqual({ resetAt: NOW + 60_000, retryAfterMs: 60_000 });
  });

  it("R-EC-6: an exhausted Anthropic bucket decides over one with headroom", () => {
    const headers = {
      "anthropic-ratelimit-requests-remaining": "40",
      "anthropic-ratelimit-requests-reset": "2026-01-05T12:05:00Z",
      "anthropic-ratelimit-tokens-remaining": "0",
      "anthropic-ratelimit-tokens-reset": "2026-01-05T12:00:10Z",
    };
    expect(parseResetHints(headers, "", NOW)).toEqual({ resetAt: NOW + 10_000, retryAfterMs: 10_000 });
  });

  it("R-EC-6: an explicit retry-after decides over bucket resets", () => {
    const headers = { "retry-after": "4", "anthropic-ratelimit-tokens-reset": "2026-01-05T12:10:00Z", "x-ratelimit-reset-tokens": "9m" };
    expect(parseResetHints(headers, "", NOW)).toEqual({ resetAt: NOW + 4000, retryAfterMs: 4000 });
  });

  it("R-EC-6: the unified subscription reset in epoch seconds", () => {
    expect(parseResetHints({ "anthropic-ratelimit-unified-reset": String(NOW / 1000 + 3600) }, "", NOW)).toEqual({
      resetAt: NOW + 3_600_000,
      retryAfterMs: 3_600_000,
    });
  });

  it("R-EC-6: x-ratelimit-reset in epoch milliseconds (OpenRouter)", () => {
    expect(parseResetHints({ "X-RateLimit-Reset": String(NOW + 45_000) }, "")).toEqual({ resetAt: NOW + 45_000 });
  });

  it("R-EC-6: a reset already in the past gives a zero wait", () => {
    expect(parseResetHints({ "retry-after": "Mon, 05 Jan 2026 11:00:00 GMT" }, "", NOW)).toEqual({
      resetAt: NOW - 3_600_000,
      retryAfterMs: 0,
    });
  });

  it("R-EC-6: junk header values are ignored", () => {
    for (const value of ["soon", "-5", "1e9999", "", "120 seconds please", "Mon, 05 Jan 1970 00:00:00 GMT"]) {
      expect(parseResetHints({ "retry-after": value }, "", NOW)).toEqual({});
    }
    expect(parseResetHints({ "x-ratelimit-reset-tokens": "6 parsecs" }, "", NOW)).toEqual({});
    expect(parseResetHints({ "retry-after-ms": String(400 * 24 * 3600 * 1000) }, "", NOW)).toEqual({});
  });

  it("R-EC-6: no headers and no text give no hint", () => {
    expect(parseResetHints(undefined, undefined, NOW)).toEqual({});
    expect(parseResetHints({}, "Rate limit exceeded", NOW)).toEqual({});
  });
});

describe("R-EC-6 reset hints from usage-limit texts", () => {
  it("R-EC-6: Codex 'try again at <date>'", () => {
    const text =
      "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at Jul 5th, 2026 8:19 PM.";
    expect(parseResetHints(undefined, text, NOW)).toEqual({
      resetAt: Date.UTC(2026, 6, 5, 20, 19),
      retryAfterMs: Date.UTC(2026, 6, 5, 20, 19) - NOW,
    });
  });

  it("R-EC-6: Codex 'try again in 5 days 22 hours 11 minutes'", () => {
    const text =
      "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11 minutes.";
    const ms = ((5 * 24 + 22) * 60 + 11) * 60_000;
    expect(parseResetHints(undefined, text, NOW)).toEqual({ resetAt: NOW + ms, retryAfterMs: ms });
  });

  it("R-EC-6: ChatGPT usage_limit_reached resets_in_seconds and resets_at: the exact timestamp wins over the rounded delay", () => {
    const body = `{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"free","resets_at":${NOW / 1000 + 600},"resets_in_seconds":602}}`;
    expect(parseResetHints(undefined, body, NOW)).toEqual({ resetAt: NOW + 600_000, retryAfterMs: 600_000 });
  });

  it("R-EC-6: resets_in_seconds alone", () => {
    expect(parseResetHints(undefined, '{"resets_in_seconds": 123}', NOW)).toEqual({ resetAt: NOW + 123_000, retryAfterMs: 123_000 });
  });

  it("R-EC-6: Codex resets_at epoch seconds alone, without now", () => {
    expect(parseResetHints(undefined, '"resets_at":1775317531', undefined)).toEqual({ resetAt: 1_775_317_531_000 });
  });

  it("R-EC-6: OpenAI/Groq 'Please try again in 8.57s' and '120ms' and '1m30.5s'", () => {
    expect(parseResetHints(undefined, "Rate limit reached … Please try again in 8.57s. Need more tokens?", NOW)).toEqual({
      resetAt: NOW + 8570,
      retryAfterMs: 8570,
    });
    expect(parseResetHints(undefined, "Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits", NOW)).toEqual({
      resetAt: NOW + 120,
      retryAfterMs: 120,
    });
    expect(parseResetHints(undefined, "Please try again in 1m30.5s.", NOW)).toEqual({ resetAt: NOW + 90_500, retryAfterMs: 90_500 });
  });

  it("R-EC-6: Gemini 'Please retry in 35.5s' and RetryInfo retryDelay: the more precise wins", () => {
    const body =
      '{"error":{"code":429,"message":"Quota exceeded. Please retry in 35.515986898s.","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"35s"}]}}';
    expect(parseResetHints(undefined, body, NOW)).toEqual({ resetAt: NOW + 35_516, retryAfterMs: 35_516 });
  });

  it("R-EC-6: Claude 'usage limit reached|<epoch>'", () => {
    expect(parseResetHints(undefined, "Claude AI usage limit reached|1770000000", NOW)).toEqual({
      resetAt: 1_770_000_000_000,
      retryAfterMs: 1_770_000_000_000 - NOW,
    });
  });

  it("R-EC-6: 'resets at' an ISO timestamp", () => {
    expect(parseResetHints(undefined, "Your weekly limit resets at 2026-01-06T00:00:00Z.", NOW)).toEqual({
      resetAt: Date.UTC(2026, 0, 6),
      retryAfterMs: Date.UTC(2026, 0, 6) - NOW,
    });
  });

  it("R-EC-6: texts combine with headers and the most precise hint wins (seconds over a whole minute)", () => {
    expect(parseResetHints({ "retry-after": "10" }, "try again in 1 minute", NOW)).toEqual({ resetAt: NOW + 10_000, retryAfterMs: 10_000 });
  });

  it("R-EC-6: vague or unparseable texts give no hint", () => {
    for (const text of [
      "try again in a few minutes",
      "try again at 3:04 PM",
      "try again at 10 de jul. de 2026, 11:52",
      "please try again later",
      "try again in 2 or 3 minutes",
    ]) {
      expect(parseResetHints(undefined, text, NOW)).toEqual({});
    }
  });
});

describe("R-EC-6 the most precise hint wins, not the latest", () => {
  it("R-EC-6: retry-after-ms 200 beats retry-after 1 (the old behaviour waited the full second)", () => {
    expect(parseResetHints({ "retry-after-ms": "200", "retry-after": "1" }, "", NOW)).toEqual({ resetAt: NOW + 200, retryAfterMs: 200 });
    expect(parseResetHints({ "retry-after": "1", "retry-after-ms": "200" }, "")).toEqual({ retryAfterMs: 200 });
  });

  it("R-EC-6: an exact reset timestamp beats a delay rounded to the same unit", () => {
    expect(parseResetHints({ "retry-after": "Mon, 05 Jan 2026 12:00:07 GMT" }, "Please retry in 9 seconds", NOW)).toEqual({
      resetAt: NOW + 7000,
      retryAfterMs: 7000,
    });
  });

  it("R-EC-6: a fractional delay beats a whole-second one", () => {
    expect(parseResetHints({ "retry-after": "3" }, "Please try again in 2.35s.", NOW)).toEqual({ resetAt: NOW + 2350, retryAfterMs: 2350 });
  });

  it("R-EC-6: a delay in seconds beats a date stated to the minute", () => {
    const text = "You've hit your usage limit, try again at Jan 5th, 2026 1:00 PM. resets_in_seconds: 3540";
    expect(parseResetHints(undefined, text, NOW)).toEqual({ resetAt: NOW + 3_540_000, retryAfterMs: 3_540_000 });
  });

  it("R-EC-6: equally precise hints still give the latest", () => {
    expect(parseResetHints({ "retry-after": ["5", "9"] }, "", NOW)).toEqual({ resetAt: NOW + 9000, retryAfterMs: 9000 });
  });
});

describe("R-EC-6 relayed reset texts", () => {
  it("R-EC-6: 'reset after 4s' as relayed by other gateways", () => {
    expect(parseResetHints(undefined, "429 all credentials are cooling down, reset after 4s", NOW)).toEqual({
      resetAt: NOW + 4000,
      retryAfterMs: 4000,
    });
  });

  it("R-EC-6: 'resets in 2m 13s'", () => {
    expect(parseResetHints(undefined, "quota exhausted, limit resets in 2m 13s", NOW)).toEqual({
      resetAt: NOW + 133_000,
      retryAfterMs: 133_000,
    });
  });

  it("R-EC-6: 'retry after 2m 13s'", () => {
    expect(parseResetHints(undefined, "concurrency limit reached, retry after 2m 13s", NOW)).toEqual({
      resetAt: NOW + 133_000,
      retryAfterMs: 133_000,
    });
  });

  it("R-EC-6: Z.ai 'Your limit will reset at 2026-01-05 13:53:48'", () => {
    expect(parseResetHints(undefined, "Usage limit reached for 5 hour. Your limit will reset at 2026-01-05 13:53:48", NOW)).toEqual({
      resetAt: Date.UTC(2026, 0, 5, 13, 53, 48),
      retryAfterMs: Date.UTC(2026, 0, 5, 13, 53, 48) - NOW,
    });
  });

  it("R-EC-6: relayed JSON retry_after and retry_after_ms fields", () => {
    expect(parseResetHints(undefined, '{"error":{"message":"slow down","retry_after":12}}', NOW)).toEqual({
      resetAt: NOW + 12_000,
      retryAfterMs: 12_000,
    });
    expect(parseResetHints(undefined, '{"retry_after_ms": 250, "retry_after": 1}', NOW)).toEqual({ resetAt: NOW + 250, retryAfterMs: 250 });
  });
});

describe("R-EC-6 duration and date parsing", () => {
  it("R-EC-6: whole-value durations reject trailing words; text durations stop at them", () => {
    expect(parseDurationMs("6m0s", true)).toBe(360_000);
    expect(parseDurationMs("6m0s later", true)).toBeUndefined();
    expect(parseDurationMs("2 days, 3 hours and 4 minutes. Upgrade", false)).toBe(((2 * 24 + 3) * 60 + 4) * 60_000);
    expect(parseDurationMs("soon", false)).toBeUndefined();
  });

  it("R-EC-6: dates without a zone are read as UTC, so results never depend on the machine", () => {
    expect(parseCalendarDate("Jan 5, 2026 3:04 PM")).toBe(Date.UTC(2026, 0, 5, 15, 4));
    expect(parseCalendarDate("2026-01-05 15:04:00")).toBe(Date.UTC(2026, 0, 5, 15, 4));
    expect(parseCalendarDate("2026-01-05")).toBe(Date.UTC(2026, 0, 5));
    expect(parseCalendarDate("120")).toBeUndefined();
  });

  test.prop([fc.anything(), fc.anything(), fc.anything()], { numRuns: 300 })(
    "R-EC-6: parseResetHints never throws and returns finite values",
    (headers, message, now) => {
      const hints = parseResetHints(headers, message, now as number);
      if (hints.resetAt !== undefined) expect(Number.isFinite(hints.resetAt)).toBe(true);
      if (hints.retryAfterMs !== undefined) expect(hints.retryAfterMs).toBeGreaterThanOrEqual(0);
    },
  );

  test.prop(
    [
      fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()), fc.integer())),
      fc.string({ maxLength: 500 }),
      fc.integer({ min: 0, max: 4_000_000_000_000 }),
    ],
    { numRuns: 300 },
  )("R-EC-6: with now, resetAt is now + retryAfterMs (or earlier than now with a zero wait)", (headers, message, now) => {
    const hints = parseResetHints(headers, message, now);
    if (hints.resetAt === undefined) expect(hints).toEqual({});
    else expect(hints.retryAfterMs).toBe(Math.max(0, hints.resetAt - now));
  });
});

describe("R-EC-6 Codex subscription window headers", () => {
  const now = Date.UTC(2026, 6, 5, 12, 0, 0);
  const resetAt = now / 1000 + 7200;
  const rows: [string, Record<string, string>, number | undefined][] = [
    [
      "a spent primary window's reset-at",
      {
        "x-codex-primary-used-percent": "100",
        "x-codex-primary-reset-at": String(resetAt),
        "x-codex-secondary-used-percent": "30",
        "x-codex-secondary-reset-at": String(resetAt + 86_400),
      },
      resetAt * 1000,
    ],
    [
      "a spent secondary window's reset-after-seconds",
      {
        "x-codex-primary-used-percent": "12",
        "x-codex-primary-reset-after-seconds": "600",
        "x-codex-secondary-used-percent": "100",
        "x-codex-secondary-reset-after-seconds": "90000",
      },
      now + 90_000_000,
    ],
    [
      "both spent: the later one, every window is needed back",
      {
        "x-codex-primary-used-percent": "100",
        "x-codex-primary-reset-after-seconds": "600",
        "x-codex-secondary-used-percent": "100.0",
        "x-codex-secondary-reset-after-seconds": "3600",
      },
      now + 3_600_000,
    ],
    [
      "no window spent: the headers say nothing about this failure",
      { "x-codex-primary-used-percent": "40", "x-codex-primary-reset-after-seconds": "600" },
      undefined,
    ],
    [
      "an explicit retry-after wins over the windows",
      { "retry-after": "30", "x-codex-primary-used-percent": "100", "x-codex-primary-reset-after-seconds": "600" },
      now + 30_000,
    ],
  ];
  it.each(rows)("R-EC-6: %s", (_title, headers, expected) => {
    expect(parseResetHints(headers, "", now).resetAt).toBe(expected);
  });
});
