import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { ConfigError, ERROR_CODES } from "../core/errors.js";
import { parseConfig } from "./parse-config.js";

const openclawFixture = JSON5.parse(
  readFileSync(fileURLToPath(new URL("./__fixtures__/openclaw.json", import.meta.url)), "utf8"),
) as unknown;

function issuesOf(raw: unknown): { path: string; message: string }[] {
  try {
    parseConfig(raw, "test.json5");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error("expected parseConfig to reject the config");
}

describe("parseConfig", () => {
  it("R-CF-2: lists every invalid path at once, in the documented form", () => {
    const issues = issuesOf({
      agents: {
        defaults: {
          model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-4o", "google/gemini-2.5-pro", "gpt-4x"] },
          timeoutSeconds: 0,
        },
        list: [{ id: "work", model: { fallbacks: [] } }],
      },
      models: { providers: { openai: { api: 7 }, lmstudio: { baseUrl: "http://127.0.0.1:1234/v1" } } },
      gateway: { port: "4141", notices: "loud" },
      state: { backend: "redis" },
      auth: { profiles: { "openai:x": { provider: "openai", mode: "password" } } },
    });
    const lines = issues.map((issue) => `${issue.path}: ${issue.message}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^agents\.defaults\.model\.fallbacks\[2\]: expected "provider\/model": model "gpt-4x" is not an alias/),
        "agents.defaults.timeoutSeconds: expected a number greater than 0",
        "agents.list[0].model.primary: required: expected a string",
        // Every api id and older name; the list grows with each provider API.
        expect.stringMatching(
          /^models\.providers\.openai\.api: expected one of "openai-chat", "openai-responses", .*"bedrock".*"openai-completions"/,
        ),
        'models.providers.lmstudio.api: required for "lmstudio", which has no built-in defaults',
        "gateway.port: expected a number, received string",
        'gateway.notices: expected one of "header", "inline"',
        'state.redis.url: required when state.backend is "redis"',
        'auth.profiles["openai:x"].mode: expected one of "api_key", "oauth", "token"',
      ]),
    );
    expect(lines).toHaveLength(9);
  });

  it("R-CF-2: the error carries the stable code, the source and one line per problem", () => {
    let caught: unknown;
    try {
      parseConfig({ gateway: { port: -1 }, agents: { defaults: { model: "nope/" } } }, "/etc/detour.json5");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.code).toBe(ERROR_CODES.config);
    expect(error.source).toBe("/etc/detour.json5");
    expect(error.message).toContain("/etc/detour.json5 (2 problems)");
    expect(error.message).toContain('agents.defaults.model: expected "provider/model"');
    expect(error.message).toContain("gateway.port: expected a number at least 0");
  });

  it("R-CF-2: error messages never quote the rejected values", () => {
    const secret = "sk-live-should-never-be-printed";
    const issues = issuesOf({
      gateway: { auth: { tokens: secret }, port: secret },
      state: { backend: "redis", redis: { url: secret } },
      models: { providers: { openai: { baseUrl: secret, headers: { Authorization: 7 } } } },
    });
    expect(issues.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(issues)).not.toContain(secret);
  });

  it("R-CF-2: a config that is not an object is rejected at the root", () => {
    expect(issuesOf([1, 2])).toEqual([{ path: "", message: "expected an object, received array" }]);
  });

  it("R-CF-2: unknown keys are warnings, never errors", () => {
    const { config, warnings } = parseConfig({
      channels: { telegram: { botToken: "x" } },
      gateway: { bind: "loopback", port: 4000 },
      agents: { defaults: { workspace: "~/w", model: "openai/gpt-4o" } },
    });
    expect(config.gateway.port).toBe(4000);
    expect(config.agents.defaults.model).toEqual({ primary: "openai/gpt-4o", fallbacks: [] });
    expect(warnings).toEqual([
      "channels: unknown key, ignored (Detour does not use it)",
      "gateway.bind: unknown key, ignored (Detour does not use it)",
      "agents.defaults.workspace: unknown key, ignored (Detour does not use it)",
    ]);
  });

  it("R-CF-1: an OpenClaw openclaw.json with many unrelated keys loads with warnings only", () => {
    const { config, warnings } = parseConfig(openclawFixture, "openclaw.json");

    expect(config.agents.defaults.model).toEqual({
      primary: "anthropic/claude-opus-4-6",
      fallbacks: ["sonnet", "openai/gpt-5.2", "openrouter/moonshotai/kimi-k2"],
    });
    expect(config.agents.defaults.models["anthropic/claude-sonnet-4-6"]).toEqual({ alias: "sonnet" });
    expect(config.auth.order.openai).toEqual(["openai:me@example.com", "openai:api-key-backup"]);
    expect(config.auth.cooldowns.billingBackoffHours).toBe(3);
    expect(config.auth.cooldowns.billingMaxHours).toBe(24);
    expect(config.models.providers.lmstudio?.models?.[0]).toEqual({
      id: "qwen3-coder-30b",
      contextWindow: 131072,
      maxTokens: 8192,
      // OpenClaw's per-model prices (USD per million tokens) mean the same in Detour (R-GW-7).
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(config.agents.list.map((agent) => agent.id)).toEqual(["main", "work"]);
    expect(config.gateway.port).toBe(18789);

    const warned = warnings.map((warning) => warning.slice(0, warning.indexOf(": unknown key")));
    expect(warned).toEqual(
      expect.arrayContaining([
        "meta",
        "wizard",
        "channels",
        "plugins",
        "tools",
        "hooks",
        "skills",
        "session",
        "messages",
        "commands",
        "browser",
        "logging",
        "update",
        "models.mode",
        "models.providers.lmstudio.apiKey",
        "models.providers.lmstudio.models[0].name",
        'agents.defaults.models["anthropic/claude-opus-4-6"].params',
        "agents.defaults.workspace",
        "agents.defaults.compaction",
        "agents.defaults.heartbeat.every",
        "agents.list[0].default",
        "agents.list[1].identity",
        "cron.enabled",
        "gateway.bind",
        "gateway.mode",
        "gateway.auth.mode",
        "gateway.auth.token",
        "gateway.tailscale",
      ]),
    );
    expect(warnings.every((warning) => warning.includes(": unknown key, ignored"))).toBe(true);
    expect(warnings.join("\n")).not.toContain("gw-secret-0f3a9c");
    expect(warnings.join("\n")).not.toContain("telegram-secret-token");
  });

  it("R-CF-2: the parsed config is deep-frozen", () => {
    const { config } = parseConfig(openclawFixture);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.agents.defaults.model.fallbacks)).toBe(true);
    expect(Object.isFrozen(config.auth.cooldowns.ladderSeconds)).toBe(true);
    expect(Object.isFrozen(config.models.providers.lmstudio?.models?.[0])).toBe(true);
    expect(() => {
      (config.gateway as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it("R-CF-2: two parses never share mutable defaults", () => {
    const first = parseConfig({}).config;
    const second = parseConfig({}).config;
    expect(first.auth.cooldowns.ladderSeconds).not.toBe(second.auth.cooldowns.ladderSeconds);
    expect(first.agents.list).not.toBe(second.agents.list);
  });

  it("R-CF-3: non-positive or non-numeric cooldown numbers fall back to defaults with a warning", () => {
    const { config, warnings } = parseConfig({
      auth: {
        cooldowns: {
          billingBackoffHours: -2,
          billingMaxHours: "lots",
          authPermanentBackoffMinutes: 0,
          overloadedProfileRotations: 1.5,
          overloadedBackoffMs: 0,
          ladderSeconds: [30, 0, 300],
          timeoutLadderSeconds: [],
          billingBackoffHoursByProvider: { openai: 2, anthropic: -1 },
          failureWindowHours: 6,
        },
      },
    });
    expect(config.auth.cooldowns).toEqual({
      billingBackoffHours: 5,
      billingBackoffHoursByProvider: { openai: 2 },
      billingMaxHours: 24,
      authPermanentBackoffMinutes: 10,
      authPermanentMaxMinutes: 60,
      failureWindowHours: 6,
      overloadedProfileRotations: 1,
      overloadedBackoffMs: 0,
      rateLimitedProfileRotations: 1,
      ladderSeconds: [30, 60, 300],
      timeoutLadderSeconds: [10, 20, 40, 80, 160, 300],
    });
    expect(warnings).toEqual([
      "auth.cooldowns.billingBackoffHours: expected a positive number, got -2; using the default 5",
      "auth.cooldowns.billingMaxHours: expected a positive number, got a string; using the default 24",
      "auth.cooldowns.authPermanentBackoffMinutes: expected a positive number, got 0; using the default 10",
      "auth.cooldowns.overloadedProfileRotations: expected a positive whole number, got 1.5; using the default 1",
      "auth.cooldowns.ladderSeconds: expected a non-empty list of positive numbers, got a list; using the default [30, 60, 300]",
      "auth.cooldowns.timeoutLadderSeconds: expected a non-empty list of positive numbers, got a list; using the default [10, 20, 40, 80, 160, 300]",
      "auth.cooldowns.billingBackoffHoursByProvider.anthropic: expected a positive number, got -1; using billingBackoffHours",
    ]);
  });

  it("R-CF-3: cooldown sanitising leaves the caller's object untouched", () => {
    const raw = { auth: { cooldowns: { billingBackoffHours: -1 } } };
    parseConfig(raw);
    expect(raw).toEqual({ auth: { cooldowns: { billingBackoffHours: -1 } } });
  });

  it("R-CF-2: warns about profile ids that do not start with their provider", () => {
    const { warnings } = parseConfig({ auth: { profiles: { "work-key": { provider: "openai", mode: "api_key" } } } });
    expect(warnings).toEqual(['auth.profiles.work-key: profile ids are "<provider>:<name>"; expected it to start with "openai:"']);
  });

  it("R-CF-2: any input either parses or fails with a ConfigError, never anything else", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (raw) => {
        try {
          parseConfig(raw);
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("R-CF-2: arbitrary values in any documented section either parse or fail with a ConfigError", () => {
    const section = fc.constantFrom("models", "auth", "agents", "cron", "gateway", "state");
    fc.assert(
      fc.property(section, fc.jsonValue(), (key, value) => {
        try {
          parseConfig({ [key]: value });
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          expect(error.issues.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
