import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SKIP_TTL_MAX_MS, SKIP_TTL_MIN_MS, parseFallbackSkipTtlMs, parseSdkRetryMaxWaitSeconds, readEnvKnobs } from "./env-knobs.js";

const HOME = "/home/ada";

describe("OPENCLAW_FALLBACK_SKIP_TTL_MS", () => {
  const table: [raw: string | undefined, expected: number | undefined][] = [
    [undefined, undefined],
    ["", undefined],
    ["   ", undefined],
    ["0", undefined],
    ["-1", undefined],
    ["-5000", undefined],
    ["abc", undefined],
    ["1.5", undefined],
    ["5000.0", undefined],
    ["1e4", undefined],
    ["+5000", undefined],
    ["5000ms", undefined],
    ["0x1000", undefined],
    ["1", 1_000],
    ["999", 1_000],
    ["1000", 1_000],
    ["5000", 5_000],
    [" 45000 ", 45_000],
    ["600000", 600_000],
    ["600001", 600_000],
    ["99999999999999999999", 600_000],
  ];
  it.each(table)("R-FB-2: %j → %j", (raw, expected) => {
    expect(parseFallbackSkipTtlMs(raw).value).toBe(expected);
  });

  it("R-FB-2: any string gives off or a TTL inside [1 000, 600 000]", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer().map(String)), (raw) => {
        const { value } = parseFallbackSkipTtlMs(raw);
        if (value !== undefined) {
          expect(Number.isInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(SKIP_TTL_MIN_MS);
          expect(value).toBeLessThanOrEqual(SKIP_TTL_MAX_MS);
        }
      }),
    );
  });

  it("R-FB-2: a value that is not a plain integer is off and warned about; 0 is a quiet off switch", () => {
    expect(parseFallbackSkipTtlMs("soon").warning).toContain("skip cache stays off");
    expect(parseFallbackSkipTtlMs("0").warning).toBeUndefined();
    expect(parseFallbackSkipTtlMs("5").warning).toContain("using 1000");
  });
});

describe("OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS", () => {
  const table: [raw: string | undefined, expected: number | null][] = [
    [undefined, 60],
    ["", 60],
    ["  ", 60],
    ["0", null],
    ["false", null],
    ["off", null],
    ["none", null],
    ["disabled", null],
    ["OFF", null],
    [" Disabled ", null],
    ["30", 30],
    ["1", 1],
    ["2.5", 2.5],
    ["600", 600],
    ["-5", 60],
    ["0.0", 60],
    ["abc", 60],
    ["1e3", 60],
    [".5", 60],
    ["5.", 60],
    ["30s", 60],
    ["Infinity", 60],
    ["no", 60],
  ];
  it.each(table)("R-RA-1: %j → %j", (raw, expected) => {
    expect(parseSdkRetryMaxWaitSeconds(raw).value).toBe(expected);
  });

  it("R-RA-1: unusable values are warned about, the documented ones are not", () => {
    expect(parseSdkRetryMaxWaitSeconds("abc").warning).toContain("using 60");
    expect(parseSdkRetryMaxWaitSeconds("off").warning).toBeUndefined();
    expect(parseSdkRetryMaxWaitSeconds(undefined).warning).toBeUndefined();
  });
});

describe("readEnvKnobs", () => {
  it("R-CF-4: with an empty environment every knob has its default", () => {
    const knobs = readEnvKnobs({}, { homeDir: HOME });
    expect(knobs).toEqual({
      sdkRetryMaxWaitSeconds: 60,
      detourHome: join(HOME, ".detour"),
      logLevel: "info",
      warnings: [],
    });
    expect(knobs.fallbackSkipTtlMs).toBeUndefined();
    expect(knobs.secretKey).toBeUndefined();
  });

  it("R-CF-4: reads the OPENCLAW_ knobs", () => {
    const knobs = readEnvKnobs({ OPENCLAW_FALLBACK_SKIP_TTL_MS: "30000", OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: "none" }, { homeDir: HOME });
    expect(knobs.fallbackSkipTtlMs).toBe(30_000);
    expect(knobs.sdkRetryMaxWaitSeconds).toBeNull();
  });

  it("R-CF-4: a DETOUR_ twin wins over its OPENCLAW_ knob when both are set", () => {
    const knobs = readEnvKnobs(
      {
        OPENCLAW_FALLBACK_SKIP_TTL_MS: "30000",
        DETOUR_FALLBACK_SKIP_TTL_MS: "0",
        OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: "off",
        DETOUR_SDK_RETRY_MAX_WAIT_SECONDS: "15",
      },
      { homeDir: HOME },
    );
    expect(knobs.fallbackSkipTtlMs).toBeUndefined();
    expect(knobs.sdkRetryMaxWaitSeconds).toBe(15);
  });

  it("R-CF-4: a blank DETOUR_ twin counts as unset", () => {
    const knobs = readEnvKnobs({ OPENCLAW_FALLBACK_SKIP_TTL_MS: "30000", DETOUR_FALLBACK_SKIP_TTL_MS: " " }, { homeDir: HOME });
    expect(knobs.fallbackSkipTtlMs).toBe(30_000);
  });

  it("R-CF-4: warnings name the variable that was actually read", () => {
    const knobs = readEnvKnobs({ DETOUR_SDK_RETRY_MAX_WAIT_SECONDS: "soon", OPENCLAW_FALLBACK_SKIP_TTL_MS: "x" }, { homeDir: HOME });
    expect(knobs.warnings).toEqual([
      "OPENCLAW_FALLBACK_SKIP_TTL_MS: expected a whole number of milliseconds; the skip cache stays off",
      "DETOUR_SDK_RETRY_MAX_WAIT_SECONDS: expected a positive number of seconds or one of 0, false, off, none, disabled; using 60",
    ]);
  });

  const homeTable: [value: string | undefined, expected: string][] = [
    [undefined, join(HOME, ".detour")],
    ["", join(HOME, ".detour")],
    ["/srv/detour", "/srv/detour"],
    ["/srv/detour/../other", "/srv/other"],
    ["~", HOME],
    ["~/state", join(HOME, "state")],
    ["relative/dir", "/work/project/relative/dir"],
  ];
  it.each(homeTable)("R-CF-4: DETOUR_HOME=%j resolves to %s", (value, expected) => {
    const knobs = readEnvKnobs({ DETOUR_HOME: value }, { homeDir: HOME, cwd: "/work/project" });
    expect(knobs.detourHome).toBe(expected);
  });

  it("R-CF-4: the user's home comes from the env object passed in", () => {
    expect(readEnvKnobs({ HOME: "/home/bob" }).detourHome).toBe(join("/home/bob", ".detour"));
  });

  it("R-CF-4: DETOUR_CONFIG is passed through", () => {
    expect(readEnvKnobs({ DETOUR_CONFIG: "conf/detour.json5" }, { homeDir: HOME }).configPath).toBe("conf/detour.json5");
    expect(readEnvKnobs({ DETOUR_CONFIG: "  " }, { homeDir: HOME }).configPath).toBeUndefined();
  });

  it("R-CF-4: DETOUR_SECRET_KEY is passed through but never serialised (R-SB-4, R-OB-2)", () => {
    const secret = "base64:c2VjcmV0LWtleS1tYXRlcmlhbA==";
    const knobs = readEnvKnobs({ DETOUR_SECRET_KEY: secret }, { homeDir: HOME });
    expect(knobs.secretKey).toBe(secret);
    expect(JSON.stringify(knobs)).not.toContain(secret);
    expect(Object.keys(knobs)).not.toContain("secretKey");
    expect({ ...knobs }).not.toHaveProperty("secretKey");
  });

  const levelTable: [value: string | undefined, expected: string, warns: boolean][] = [
    [undefined, "info", false],
    ["", "info", false],
    ["debug", "debug", false],
    ["WARN", "warn", false],
    [" error ", "error", false],
    ["info", "info", false],
    ["verbose", "info", true],
    ["trace", "info", true],
  ];
  it.each(levelTable)("R-CF-4: DETOUR_LOG_LEVEL=%j → %s", (value, expected, warns) => {
    const knobs = readEnvKnobs({ DETOUR_LOG_LEVEL: value }, { homeDir: HOME });
    expect(knobs.logLevel).toBe(expected);
    expect(knobs.warnings.length > 0).toBe(warns);
  });

  it("R-CF-4: reads nothing but the env object passed in", () => {
    const saved = process.env.OPENCLAW_FALLBACK_SKIP_TTL_MS;
    process.env.OPENCLAW_FALLBACK_SKIP_TTL_MS = "5000";
    try {
      expect(readEnvKnobs({}, { homeDir: HOME }).fallbackSkipTtlMs).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.OPENCLAW_FALLBACK_SKIP_TTL_MS;
      else process.env.OPENCLAW_FALLBACK_SKIP_TTL_MS = saved;
    }
  });
});
