import { describe, expect, it } from "vitest";
import { resolveCooldownSettings, sanitizeCooldowns } from "./cooldown-settings.js";
import { DEFAULT_COOLDOWNS } from "./defaults.js";
import { parseConfig } from "./parse-config.js";

describe("resolveCooldownSettings", () => {
  it("R-CF-3: with no config it returns the documented cooldown defaults", () => {
    expect(resolveCooldownSettings(parseConfig({}).config)).toEqual(DEFAULT_COOLDOWNS);
    expect(DEFAULT_COOLDOWNS).toEqual({
      billingBackoffHours: 5,
      billingBackoffHoursByProvider: {},
      billingMaxHours: 24,
      authPermanentBackoffMinutes: 10,
      authPermanentMaxMinutes: 60,
      failureWindowHours: 24,
      overloadedProfileRotations: 1,
      overloadedBackoffMs: 0,
      rateLimitedProfileRotations: 1,
      ladderSeconds: [30, 60, 300],
      timeoutLadderSeconds: [10, 20, 40, 80, 160, 300],
    });
  });

  it("R-CF-3: configured cooldowns come through, the rest keep their defaults", () => {
    const { config } = parseConfig({
      auth: {
        cooldowns: {
          billingBackoffHoursByProvider: { openrouter: 1 },
          overloadedBackoffMs: 250,
          ladderSeconds: [5, 10],
          rateLimitedProfileRotations: 3,
        },
      },
    });
    const settings = resolveCooldownSettings(config);
    expect(settings).toEqual({
      ...DEFAULT_COOLDOWNS,
      billingBackoffHoursByProvider: { openrouter: 1 },
      overloadedBackoffMs: 250,
      ladderSeconds: [5, 10],
      rateLimitedProfileRotations: 3,
    });
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.ladderSeconds)).toBe(true);
  });

  it("R-CF-3: values of the wrong kind at any cooldown key are dropped with a warning", () => {
    const table: [key: string, value: unknown][] = [
      ["billingBackoffHours", null],
      ["billingMaxHours", Number.NaN],
      ["authPermanentMaxMinutes", "60"],
      ["failureWindowHours", true],
      ["overloadedBackoffMs", -1],
      ["rateLimitedProfileRotations", 0],
      ["timeoutLadderSeconds", "10,20"],
      ["billingBackoffHoursByProvider", [1]],
    ];
    for (const [key, value] of table) {
      const { value: cleaned, warnings } = sanitizeCooldowns({ auth: { cooldowns: { [key]: value } } });
      expect(warnings, key).toHaveLength(1);
      expect(warnings[0]?.startsWith(`auth.cooldowns.${key}: expected `), key).toBe(true);
      expect((cleaned as { auth: { cooldowns: Record<string, unknown> } }).auth.cooldowns[key], key).toBeUndefined();
    }
  });

  it("R-CF-3: sanitising leaves configs without auth.cooldowns as they are", () => {
    const raw = { gateway: { port: 1 } };
    expect(sanitizeCooldowns(raw)).toEqual({ value: raw, warnings: [] });
    expect(sanitizeCooldowns("not a config")).toEqual({ value: "not a config", warnings: [] });
  });
});
