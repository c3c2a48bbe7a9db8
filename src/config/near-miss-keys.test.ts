import { describe, expect, it } from "vitest";
import { ConfigError } from "../core/errors.js";
import { closestKnownKey, keyEditDistance } from "./near-miss-keys.js";
import { parseConfig } from "./parse-config.js";

function issuesOf(raw: unknown): { path: string; message: string }[] {
  try {
    parseConfig(raw);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe("keys that are a typo of a known key", () => {
  it.each([
    ["fallback", "fallbacks", 1],
    ["gatway", "gateway", 1],
    ["fallabcks", "fallbacks", 1],
    ["baseURL", "baseUrl", 2],
    ["channels", "cron", 6],
  ])("the edit distance of %s and %s is %i (case kept)", (a, b, expected) => {
    expect(keyEditDistance(a, b, 5)).toBe(expected);
  });

  it.each([
    ["fallback", ["primary", "fallbacks"], "fallbacks"],
    ["BaseUrl", ["baseUrl", "api"], "baseUrl"],
    ["retrySameProfileOnTimout", ["retrySameProfileOnTimeout"], "retrySameProfileOnTimeout"],
    ["retrySameProfilOnTimout", ["retrySameProfileOnTimeout"], "retrySameProfileOnTimeout"],
    ["workspace", ["model", "models", "timeoutSeconds"], undefined],
    ["bind", ["port", "host"], undefined],
    ["mode", ["models", "providers"], undefined],
    ["apo", ["api"], "api"],
  ])("%s is read as a typo of %j → %s", (typed, known, expected) => {
    expect(closestKnownKey(typed, known)).toBe(expected);
  });

  it("R-CF-2 a typo of a known key is an error naming the key meant, listed with the other problems", () => {
    expect(
      issuesOf({
        gatway: { port: 1 },
        agents: { defaults: { model: { primary: "openai/gpt-5", fallback: ["anthropic/claude-sonnet-4-6"] } } },
        auth: { cooldowns: { billingBackoffHours: "x" } },
      }),
    ).toEqual(
      expect.arrayContaining([
        { path: "gatway", message: 'unknown key; did you mean "gateway"? Rename it (as written it is ignored)' },
        { path: "agents.defaults.model.fallback", message: 'unknown key; did you mean "fallbacks"? Rename it (as written it is ignored)' },
      ]),
    );
  });

  it("R-CF-2 typos are found inside lists and maps of known shape", () => {
    expect(
      issuesOf({
        agents: { list: [{ id: "work", modle: "openai/gpt-5" }] },
        models: { providers: { mine: { api: "openai-completions", baseUrl: "http://127.0.0.1:1", heders: {} } } },
      }).map((issue) => issue.path),
    ).toEqual(["agents.list[0].modle", "models.providers.mine.heders"]);
  });

  it("R-CF-2 keys OpenClaw uses next to a Detour key stay warnings, with the hint", () => {
    const { warnings } = parseConfig({ session: { scope: "per-sender" }, gateway: { auth: { token: "t" } } });
    expect(warnings).toEqual([
      'session: unknown key, ignored (Detour does not use it; if you meant Detour\'s "sessions", rename it)',
      'gateway.auth.token: unknown key, ignored (Detour does not use it; if you meant Detour\'s "tokens", rename it)',
    ]);
  });

  it("R-CF-2 unknown keys far from every known key stay warnings", () => {
    const { warnings } = parseConfig({ channels: {}, agents: { defaults: { workspace: "~/w" } } });
    expect(warnings).toEqual([
      "channels: unknown key, ignored (Detour does not use it)",
      "agents.defaults.workspace: unknown key, ignored (Detour does not use it)",
    ]);
  });
});

describe("a misspelled provider in a model chain", () => {
  it("R-GW-3 is refused with the real provider's reference as the suggestion, never the typo itself", () => {
    const issues = issuesOf({
      agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropc/claude-sonnet-4-6", "claude-sonet-4-6"] } } },
    });
    expect(issues[0]).toEqual({
      path: "agents.defaults.model.fallbacks[0]",
      message: expect.stringMatching(/^unknown provider "anthropc"; did you mean "anthropic\/claude-sonnet-4-6"\? known providers: /),
    });
    expect(issues[1]?.path).toBe("agents.defaults.model.fallbacks[1]");
    expect(issues[1]?.message).toContain('did you mean "anthropic/claude-sonnet-4-6"');
    expect(issues.map((issue) => issue.message).join("\n")).not.toContain('"anthropc/');
  });
});
