import { describe, expect, it } from "vitest";
import { HEADROOM_HEADER_ROWS, RATE_LIMIT_PREFIXES, readHeadroom, type HeadroomHeaderRow } from "./header-readers.js";
import { parseDurationMs, parseEpochMs, parseRfc3339 } from "./header-values.js";
import type { HeadroomReading } from "./reading.js";

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const SECONDS = Math.floor(NOW / 1000);

interface FixtureRow {
  title: string;
  /** Which table row the fixture exercises (family/window). */
  row: `${HeadroomHeaderRow["family"]}/${string}`;
  headers: Record<string, string>;
  expected: Omit<HeadroomReading, "readAt" | "family">;
}

/** One fixture per table row: real header shapes as the providers send them. */
const FIXTURES: readonly FixtureRow[] = [
  {
    title: "OpenAI requests bucket, reset as a Go duration",
    row: "openai/requests",
    headers: { "x-ratelimit-limit-requests": "500", "x-ratelimit-remaining-requests": "499", "x-ratelimit-reset-requests": "120ms" },
    expected: { window: "requests", model: "gpt-4o", remainingShare: 499 / 500, limit: 500, remaining: 499, resetAt: NOW + 120 },
  },
  {
    title: "OpenAI tokens bucket, reset `6m0s`",
    row: "openai/tokens",
    headers: { "x-ratelimit-limit-tokens": "30000", "x-ratelimit-remaining-tokens": "1500", "x-ratelimit-reset-tokens": "6m0s" },
    expected: { window: "tokens", model: "gpt-4o", remainingShare: 0.05, limit: 30000, remaining: 1500, resetAt: NOW + 360_000 },
  },
  {
    title: "Anthropic requests bucket, RFC 3339 reset",
    row: "anthropic/requests",
    headers: {
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": "2025-01-15T12:00:30Z",
    },
    expected: { window: "requests", model: "gpt-4o", remainingShare: 0, limit: 50, remaining: 0, resetAt: NOW + 30_000 },
  },
  {
    title: "Anthropic tokens bucket",
    row: "anthropic/tokens",
    headers: {
      "anthropic-ratelimit-tokens-limit": "100000",
      "anthropic-ratelimit-tokens-remaining": "25000",
      "anthropic-ratelimit-tokens-reset": "2025-01-15T12:01:00Z",
    },
    expected: { window: "tokens", model: "gpt-4o", remainingShare: 0.25, limit: 100000, remaining: 25000, resetAt: NOW + 60_000 },
  },
  {
    title: "Anthropic input-tokens bucket",
    row: "anthropic/input-tokens",
    headers: {
      "anthropic-ratelimit-input-tokens-limit": "40000",
      "anthropic-ratelimit-input-tokens-remaining": "40000",
      "anthropic-ratelimit-input-tokens-reset": "2025-01-15T12:00:01Z",
    },
    expected: { window: "input-tokens", model: "gpt-4o", remainingShare: 1, limit: 40000, remaining: 40000, resetAt: NOW + 1000 },
  },
  {
    title: "Anthropic output-tokens bucket",
    row: "anthropic/output-tokens",
    headers: {
      "anthropic-ratelimit-output-tokens-limit": "8000",
      "anthropic-ratelimit-output-tokens-remaining": "2000",
      "anthropic-ratelimit-output-tokens-reset": "2025-01-15T12:00:12.500Z",
    },
    expected: { window: "output-tokens", model: "gpt-4o", remainingShare: 0.25, limit: 8000, remaining: 2000, resetAt: NOW + 12_500 },
  },
  {
    title: "Subscription 5-hour window: utilisation fraction, status, epoch-seconds reset",
    row: "anthropic-unified/unified-5h",
    headers: {
      "anthropic-ratelimit-unified-5h-utilization": "0.97",
      "anthropic-ratelimit-unified-5h-status": "allowed_warning",
      "anthropic-ratelimit-unified-5h-reset": String(SECONDS + 3600),
    },
    expected: { window: "unified-5h", remainingShare: 1 - 0.97, status: "allowed_warning", resetAt: NOW + 3_600_000 },
  },
  {
    title: "Subscription 7-day window",
    row: "anthropic-unified/unified-7d",
    headers: {
      "anthropic-ratelimit-unified-7d-utilization": "0.18",
      "anthropic-ratelimit-unified-7d-status": "allowed",
      "anthropic-ratelimit-unified-7d-reset": String(SECONDS + 5 * 86400),
    },
    expected: { window: "unified-7d", remainingShare: 0.82, status: "allowed", resetAt: NOW + 5 * 86_400_000 },
  },
  {
    title: "Subscription summary: overall status and the representative claim",
    row: "anthropic-unified/unified",
    headers: {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
      "anthropic-ratelimit-unified-reset": String(SECONDS + 600),
    },
    expected: { window: "unified", status: "rejected", claim: "five_hour", resetAt: NOW + 600_000 },
  },
  {
    title: "OpenRouter key bucket, reset as epoch milliseconds",
    row: "openrouter/key-requests",
    headers: { "x-ratelimit-limit": "20", "x-ratelimit-remaining": "15", "x-ratelimit-reset": String(NOW + 45_000) },
    expected: { window: "key-requests", remainingShare: 0.75, limit: 20, remaining: 15, resetAt: NOW + 45_000 },
  },
  {
    title: "Codex primary window: used percent, window minutes, reset-after-seconds",
    row: "codex/codex-primary",
    headers: {
      "x-codex-primary-used-percent": "42",
      "x-codex-primary-window-minutes": "300",
      "x-codex-primary-reset-after-seconds": "18000",
    },
    expected: { window: "codex-primary", remainingShare: 0.58, windowMinutes: 300, resetAt: NOW + 18_000_000 },
  },
  {
    title: "Codex secondary window: reset-at (epoch seconds) wins over reset-after-seconds",
    row: "codex/codex-secondary",
    headers: {
      "x-codex-secondary-used-percent": "94",
      "x-codex-secondary-window-minutes": "10080",
      "x-codex-secondary-reset-at": String(SECONDS + 86_400),
      "x-codex-secondary-reset-after-seconds": "1",
    },
    expected: { window: "codex-secondary", remainingShare: 0.06000000000000005, windowMinutes: 10080, resetAt: NOW + 86_400_000 },
  },
];

describe("R-PO-7: rate-limit header readers (one fixture per table row)", () => {
  for (const fixture of FIXTURES) {
    it(`R-PO-7: ${fixture.title}`, () => {
      const readings = readHeadroom(fixture.headers, { now: NOW, model: "gpt-4o" });
      expect(readings).toHaveLength(1);
      const [reading] = readings;
      expect(`${reading?.family}/${reading?.window}`).toBe(fixture.row);
      const { family: _family, readAt, ...rest } = reading as HeadroomReading;
      expect(readAt).toBe(NOW);
      if (fixture.expected.remainingShare === undefined) expect(rest.remainingShare).toBeUndefined();
      else expect(rest.remainingShare).toBeCloseTo(fixture.expected.remainingShare, 10);
      expect({ ...rest, remainingShare: undefined }).toEqual({ ...fixture.expected, remainingShare: undefined });
    });
  }

  it("R-PO-7: an answer without rate-limit headers yields nothing; a rate-limit header among others is still read", () => {
    expect(readHeadroom({ "content-type": "application/json", "x-request-id": "req_1" }, { now: NOW, model: "gpt-4o" })).toEqual([]);
    const readings = readHeadroom(
      {
        "content-type": "application/json",
        "X-RateLimit-Limit-Requests": "10",
        "x-ratelimit-remaining-requests": "5",
        "x-ratelimit-reset-requests": "1s",
      },
      { now: NOW, model: "gpt-4o" },
    );
    expect(readings.map((reading) => reading.remainingShare)).toEqual([0.5]);
  });

  it("R-PO-7: every header a table row reads is found by the rate-limit prefix pre-filter", () => {
    for (const row of HEADROOM_HEADER_ROWS) {
      const names = [
        row.limit,
        row.remaining,
        row.used?.header,
        row.status,
        row.claim,
        row.windowMinutes,
        ...row.reset.map((reset) => reset.header),
      ];
      for (const name of names.filter((entry): entry is string => entry !== undefined)) {
        expect(
          RATE_LIMIT_PREFIXES.some((prefix) => name.startsWith(prefix)),
          name,
        ).toBe(true);
      }
    }
  });

  it("R-PO-7: every table row has a fixture", () => {
    const covered = new Set(FIXTURES.map((fixture) => fixture.row));
    for (const row of HEADROOM_HEADER_ROWS) expect(covered, `${row.family}/${row.window}`).toContain(`${row.family}/${row.window}`);
  });

  it("R-PO-7: a full subscription answer yields every window it states; header case does not matter", () => {
    const readings = readHeadroom(
      {
        "Anthropic-Ratelimit-Unified-5h-Utilization": "0.5",
        "anthropic-ratelimit-unified-5h-reset": String(SECONDS + 3600),
        "anthropic-ratelimit-unified-7d-utilization": "0.1",
        "anthropic-ratelimit-unified-7d-reset": String(SECONDS + 86400),
        "anthropic-ratelimit-unified-status": "allowed",
        "anthropic-ratelimit-unified-reset": String(SECONDS + 3600),
      },
      { now: NOW, model: "claude-sonnet-4" },
    );
    expect(readings.map((reading) => reading.window)).toEqual(["unified-5h", "unified-7d", "unified"]);
    expect(readings.every((reading) => reading.model === undefined)).toBe(true);
  });

  it("R-PO-7: no reading without a usable reset, a value or a known status; past resets are dropped", () => {
    expect(readHeadroom({ "x-ratelimit-limit-requests": "500", "x-ratelimit-remaining-requests": "10" }, { now: NOW })).toEqual([]);
    expect(
      readHeadroom(
        { "x-ratelimit-limit-requests": "500", "x-ratelimit-remaining-requests": "ten", "x-ratelimit-reset-requests": "1s" },
        { now: NOW },
      ),
    ).toEqual([]);
    expect(
      readHeadroom(
        { "anthropic-ratelimit-unified-5h-status": "surprised", "anthropic-ratelimit-unified-5h-reset": String(SECONDS + 60) },
        { now: NOW },
      ),
    ).toEqual([]);
    expect(
      readHeadroom(
        {
          "anthropic-ratelimit-requests-limit": "50",
          "anthropic-ratelimit-requests-remaining": "3",
          "anthropic-ratelimit-requests-reset": "2025-01-15T11:59:00Z",
        },
        { now: NOW },
      ),
    ).toEqual([]);
    expect(readHeadroom({ "content-type": "application/json" }, { now: NOW })).toEqual([]);
  });
});

describe("R-PO-7: header value formats", () => {
  const durations: [string, number | undefined][] = [
    ["6m0s", 360_000],
    ["1.5s", 1500],
    ["20ms", 20],
    ["1h2m3s", 3_723_000],
    ["2m59.56s", 179_560],
    ["7", 7000],
    ["", undefined],
    ["soon", undefined],
    ["5 minutes", undefined],
  ];
  for (const [text, expected] of durations) {
    it(`R-PO-7: duration ${JSON.stringify(text)} → ${String(expected)}`, () => {
      const parsed = parseDurationMs(text === "" ? undefined : text);
      if (expected === undefined) expect(parsed).toBeUndefined();
      else expect(parsed).toBeCloseTo(expected, 6);
    });
  }
  it("R-PO-7: epochs in seconds and milliseconds both read as milliseconds; RFC 3339 needs a date", () => {
    expect(parseEpochMs("1736942400")).toBe(1_736_942_400_000);
    expect(parseEpochMs("1736942400000")).toBe(1_736_942_400_000);
    expect(parseEpochMs("-5")).toBeUndefined();
    expect(parseRfc3339("2025-01-15T12:00:00Z")).toBe(NOW);
    expect(parseRfc3339("12:00")).toBeUndefined();
  });
});
