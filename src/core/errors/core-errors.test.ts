import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DetourError,
  ERROR_CODES,
  FailoverError,
  FallbackSummaryError,
  LiveSessionModelSwitchError,
  ModelSelectionError,
  type AttemptRecord,
} from "./index.js";

describe("error codes", () => {
  it("are stable strings, unique, and prefixed DETOUR_", () => {
    // The codes of the decision plane, spelled out: changing one breaks every client that matches on it.
    expect(ERROR_CODES).toMatchObject({
      failover: "DETOUR_FAILOVER",
      fallbackSummary: "DETOUR_ALL_MODELS_FAILED",
      liveSessionModelSwitch: "DETOUR_LIVE_MODEL_SWITCH",
      config: "DETOUR_CONFIG_INVALID",
      modelSelection: "DETOUR_MODEL_SELECTION_INVALID",
      seatsFull: "DETOUR_SEATS_FULL",
    });
    for (const code of Object.values(ERROR_CODES)) expect(code).toMatch(/^DETOUR_[A-Z0-9_]+$/);
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it.each<[string, DetourError, string]>([
    ["FailoverError", new FailoverError("boom", { reason: "rate_limit" }), ERROR_CODES.failover],
    ["FallbackSummaryError", new FallbackSummaryError("all failed", { attempts: [] }), ERROR_CODES.fallbackSummary],
    [
      "LiveSessionModelSwitchError",
      new LiveSessionModelSwitchError({ provider: "openai", model: "gpt-4o" }),
      ERROR_CODES.liveSessionModelSwitch,
    ],
    ["ConfigError", new ConfigError([{ path: "gateway.port", message: "expected a number" }]), ERROR_CODES.config],
    ["ModelSelectionError", new ModelSelectionError({ input: "gpt", origin: "request model" }), ERROR_CODES.modelSelection],
  ])("%s carries its class name, its code and is a DetourError", (name, error, code) => {
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(DetourError);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(String(error)).toContain(name);
  });
});

describe("FailoverError", () => {
  it("keeps every detail and the cause", () => {
    const cause = new Error("upstream 429");
    const error = new FailoverError("Rate limited by anthropic", {
      reason: "rate_limit",
      provider: "anthropic",
      model: "claude-opus-4-6",
      profileId: "anthropic:work",
      status: 429,
      code: "rate_limit_error",
      resetAt: 1_700_000_060_000,
      cause,
    });
    expect(error).toMatchObject({
      reason: "rate_limit",
      provider: "anthropic",
      model: "claude-opus-4-6",
      profileId: "anthropic:work",
      status: 429,
      upstreamCode: "rate_limit_error",
      resetAt: 1_700_000_060_000,
      allInCooldown: false,
    });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe("Rate limited by anthropic");
  });

  it("marks allInCooldown only when told (R-RN-5)", () => {
    expect(new FailoverError("x", { reason: "rate_limit", allInCooldown: true }).allInCooldown).toBe(true);
    expect(new FailoverError("x", { reason: "rate_limit" }).cause).toBeUndefined();
  });
});

describe("FallbackSummaryError", () => {
  it("R-FB-6: carries attempts, soonest cooldown expiry and the last error as cause", () => {
    const attempts: AttemptRecord[] = [
      { provider: "anthropic", model: "a", reason: "rate_limit", status: 429, error: "429" },
      { provider: "openai", model: "b", reason: "timeout", error: "timed out" },
    ];
    const last = new Error("timed out");
    const error = new FallbackSummaryError("All models failed (2): …", { attempts, soonestCooldownExpiry: 123, cause: last });
    expect(error.attempts).toEqual(attempts);
    expect(error.soonestCooldownExpiry).toBe(123);
    expect(error.cause).toBe(last);
  });
});

describe("LiveSessionModelSwitchError", () => {
  it("R-FB-7: names the target model and says the run continues with it", () => {
    const error = new LiveSessionModelSwitchError({ provider: "openai", model: "gpt-4o" });
    expect(error.provider).toBe("openai");
    expect(error.model).toBe("gpt-4o");
    expect(error.message).toContain("openai/gpt-4o");
    expect(error.message).toMatch(/continues with that model/);
  });
});

describe("ConfigError", () => {
  it("R-CF-2: lists every problem at once with its path and says what to do", () => {
    const error = new ConfigError(
      [
        { path: "agents.defaults.model.fallbacks[2]", message: 'expected "provider/model"' },
        { path: "", message: "expected an object" },
      ],
      "/etc/detour.json5",
    );
    expect(error.issues).toHaveLength(2);
    expect(error.source).toBe("/etc/detour.json5");
    expect(error.message).toContain("in /etc/detour.json5 (2 problems)");
    expect(error.message).toContain('  agents.defaults.model.fallbacks[2]: expected "provider/model"');
    expect(error.message).toContain("  (root): expected an object");
    expect(error.message).toMatch(/Fix these keys/);
  });

  it("uses the singular for one problem and omits a missing source", () => {
    const error = new ConfigError([{ path: "gateway.port", message: "expected a number" }]);
    expect(error.message.split("\n")[0]).toBe("Invalid configuration (1 problem):");
    expect(error.source).toBeUndefined();
  });
});

describe("ModelSelectionError", () => {
  it("R-CH-1: names the unresolvable text, where it came from, and the expected form", () => {
    const error = new ModelSelectionError({ input: "gtp-4o", origin: "fallbacks override[0]" });
    expect(error.input).toBe("gtp-4o");
    expect(error.origin).toBe("fallbacks override[0]");
    expect(error.message).toContain('"gtp-4o"');
    expect(error.message).toContain("fallbacks override[0]");
    expect(error.message).toContain('"provider/model"');
  });

  it("R-CH-2: without input it says no model is selected and how to set one", () => {
    const error = new ModelSelectionError({ origin: "agents.defaults.model" });
    expect(error.input).toBeUndefined();
    expect(error.message).toMatch(/No model is selected/);
    expect(error.message).toContain("agents.defaults.model.primary");
  });
});
