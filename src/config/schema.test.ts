import { describe, expect, expectTypeOf, it } from "vitest";
import { parseConfig } from "./parse-config.js";
import type { DetourConfig, DetourConfigInput } from "./schema.js";
import { configIssues } from "./__fixtures__/config-issues.js";

describe("config schema", () => {
  it("R-CF-3: every key has its documented default", () => {
    expect(parseConfig({}).config).toEqual({
      models: { providers: {} },
      auth: {
        profiles: {},
        order: {},
        cooldowns: {
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
        },
        headroom: { minRemaining: 0.05, strategy: "spread" },
      },
      agents: {
        defaults: {
          model: { fallbacks: [] },
          models: {},
          timeoutSeconds: 600,
          modelFailover: {
            retrySameProfileOnTimeout: 1,
            retrySameProfileOnServerError: 1,
            retryBackoffMs: [300, 1200],
            shortWaitSeconds: 3,
            waitForCooldownMaxSeconds: 10,
            hedging: { enabled: true, maxExtra: 1, budgetPercent: 10, burst: 3 },
          },
          heartbeat: {},
        },
        list: [],
      },
      cron: { jobs: [] },
      gateway: {
        host: "127.0.0.1",
        port: 4141,
        auth: {},
        notices: "header",
        streamStallSeconds: 30,
        streamContinuations: 2,
        maxBodyMb: 32,
        queueTimeoutSeconds: 30,
        queueMax: 1000,
        allowedHosts: [],
        allowedOrigins: [],
      },
      state: { backend: "sqlite" },
      sessions: { idleTtlDays: 30, maxCount: 100000 },
      trace: { keepRuns: 10000, keepHours: 24 },
    });
  });

  it("R-CF-3: agents.defaults.model accepts a bare string meaning { primary }", () => {
    const { config } = parseConfig({ agents: { defaults: { model: "anthropic/claude-sonnet-4-6" } } });
    expect(config.agents.defaults.model).toEqual({ primary: "anthropic/claude-sonnet-4-6", fallbacks: [] });
  });

  it("R-CF-3: agents.list[].model keeps its written form (string, or object with or without fallbacks)", () => {
    const { config } = parseConfig({
      agents: {
        list: [
          { id: "a", model: "openai/gpt-4o" },
          { id: "b", model: { primary: "openai/gpt-4o" } },
          { id: "c", model: { primary: "openai/gpt-4o", fallbacks: [] } },
          { id: "d" },
        ],
      },
    });
    expect(config.agents.list.map((agent) => agent.model)).toEqual([
      "openai/gpt-4o",
      { primary: "openai/gpt-4o" },
      { primary: "openai/gpt-4o", fallbacks: [] },
      undefined,
    ]);
  });

  const refTable: [ref: string, valid: boolean][] = [
    ["openai/gpt-4o", true],
    ["anthropic/claude-sonnet-4-6", true],
    ["openrouter/anthropic/claude-3.5-sonnet", true],
    ["ollama/qwen3.5:27b", true],
    ["google/gemini-2.5-pro", true],
    ["openai-codex/gpt-5.2", true],
    ["gpt-4o-nano-x", false],
    ["/gpt-4", false],
    ["openai/", false],
    ["open ai/gpt-4", false],
    ["openai/gpt 4", false],
    ["", false],
  ];
  it.each(refTable)("R-CF-3: model ref %j valid=%s", (ref, valid) => {
    const problems = configIssues({ agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: [ref] } } } });
    if (valid) expect(problems).toEqual([]);
    else expect(problems).toEqual([expect.stringMatching(/^agents\.defaults\.model\.fallbacks\[0\]: expected "provider\/model"/)]);
  });

  it("R-GW-3: a bare model name in the config is read as the one provider/model the catalogue offers it under, with a note", () => {
    const { config, warnings } = parseConfig({
      agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["claude-sonnet-4"] } } },
    });
    expect(config.agents.defaults.model.fallbacks).toEqual(["anthropic/claude-sonnet-4"]);
    expect(warnings).toEqual([
      'agents.defaults.model.fallbacks[0]: bare model name "claude-sonnet-4" read as "anthropic/claude-sonnet-4"; write it so to keep that meaning',
    ]);
  });

  it("R-GW-3: bare names are read in every model-ref position: primary, fallbacks, heartbeats, agents and cron payloads", () => {
    const { config } = parseConfig({
      agents: {
        defaults: { model: "gpt-4o", heartbeat: { model: "gpt-4o-mini" } },
        list: [
          { id: "x", model: { primary: "gemini-2.5-pro", fallbacks: ["o3"] }, heartbeat: { model: "gpt-4o" } },
          { id: "y", model: "o3" },
        ],
      },
      cron: { jobs: [{ id: "j", schedule: "@hourly", payload: { message: "m", model: "claude-sonnet-4", fallbacks: ["gpt-4o"] } }] },
    });
    expect(config.agents.defaults.model.primary).toBe("openai/gpt-4o");
    expect(config.agents.defaults.heartbeat.model).toBe("openai/gpt-4o-mini");
    expect(config.agents.list[0]?.model).toEqual({ primary: "google/gemini-2.5-pro", fallbacks: ["openai/o3"] });
    expect(config.agents.list[0]?.heartbeat?.model).toBe("openai/gpt-4o");
    expect(config.agents.list[1]?.model).toBe("openai/o3");
    expect(config.cron.jobs[0]?.payload).toMatchObject({ model: "anthropic/claude-sonnet-4", fallbacks: ["openai/gpt-4o"] });
    expect(Object.isFrozen(config.agents.defaults.model)).toBe(true);
  });

  it("R-GW-3: the models the config names come first: a bare name of a configured provider's model, or a dated snapshot of it", () => {
    const { config } = parseConfig({
      models: { providers: { vllm: { api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1", models: [{ id: "qwen3-32b" }] } } },
      agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-5", fallbacks: ["qwen3-32b", "claude-sonnet-4-5-20250929"] } } },
    });
    expect(config.agents.defaults.model.fallbacks).toEqual(["vllm/qwen3-32b", "anthropic/claude-sonnet-4-5-20250929"]);
  });

  it("R-GW-3: the catalogue is searched only among built-in and configured providers", () => {
    // cerebras is no built-in: its catalogue counts only once the config names it.
    expect(configIssues({ agents: { defaults: { model: "gpt-oss-120b" } } })).toEqual([
      expect.stringContaining(
        'agents.defaults.model.primary: expected "provider/model": model "gpt-oss-120b" is not an alias and no known provider offers it',
      ),
    ]);
    const { config } = parseConfig({
      models: { providers: { cerebras: { api: "openai-completions", baseUrl: "http://127.0.0.1:8001/v1" } } },
      agents: { defaults: { model: "gpt-oss-120b" } },
    });
    expect(config.agents.defaults.model.primary).toBe("cerebras/gpt-oss-120b");
  });

  it("R-GW-3: an ambiguous bare name is refused with its candidates; an unknown one with the closest names and the known providers", () => {
    expect(
      configIssues({
        models: { providers: { vllm: { api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1", models: [{ id: "gpt-4o" }] } } },
        agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["gpt-4o"] } } },
      }),
    ).toEqual([
      'agents.defaults.model.fallbacks[0]: expected "provider/model": model "gpt-4o" is offered by several providers (openai/gpt-4o, vllm/gpt-4o); write one of them as provider/model',
    ]);
    expect(configIssues({ agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["gpt-4o-mni"] } } } })).toEqual([
      'agents.defaults.model.fallbacks[0]: expected "provider/model": model "gpt-4o-mni" is not an alias and no known provider offers it; ' +
        'did you mean "openai/gpt-4o-mini"? write it as provider/model (known providers: anthropic, google, ollama, openai, openai-codex, openrouter)',
    ]);
  });

  it("R-GW-3: an unknown provider in a model chain is refused with the known providers", () => {
    expect(
      configIssues({
        models: { providers: { vllm: { api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1" } } },
        agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["vllm/qwen", "nope/x"] } } },
      }),
    ).toEqual([
      'agents.defaults.model.fallbacks[1]: unknown provider "nope"; known providers: anthropic, google, ollama, openai, openai-codex, openrouter, vllm (add models.providers.nope to use another)',
    ]);
  });

  it("R-CF-3: a bare word is a valid model ref when it is an alias from agents.defaults.models", () => {
    const { config } = parseConfig({
      agents: {
        defaults: {
          model: { primary: "opus", fallbacks: ["fast"] },
          models: { "anthropic/claude-opus-4-6": { alias: "opus" }, "openai/gpt-4o-mini": { alias: "fast" } },
          heartbeat: { model: "fast" },
        },
        list: [{ id: "x", model: "opus", heartbeat: { model: "fast" } }],
      },
      cron: { jobs: [{ id: "j", schedule: "0 9 * * 1-5", payload: { message: "hi", model: "fast", fallbacks: ["opus"] } }] },
    });
    expect(config.agents.defaults.model.primary).toBe("opus");
  });

  it("R-CF-3: every model-ref position is checked", () => {
    expect(
      configIssues({
        agents: {
          defaults: { model: "nope", heartbeat: { model: "nah" }, models: { "bare-key": {} } },
          list: [{ id: "x", model: { primary: "p", fallbacks: ["q"] }, heartbeat: { model: "r" } }],
        },
        cron: { jobs: [{ id: "j", schedule: "@hourly", payload: { message: "m", model: "s", fallbacks: ["t"] } }] },
      }),
    ).toEqual([
      'agents.defaults.models.bare-key: expected "provider/model"',
      ...[
        "agents.defaults.model.primary",
        "agents.defaults.heartbeat.model",
        "agents.list[0].model.primary",
        "agents.list[0].model.fallbacks[0]",
        "agents.list[0].heartbeat.model",
        "cron.jobs[0].payload.model",
        "cron.jobs[0].payload.fallbacks[0]",
      ].map((path) =>
        expect.stringMatching(new RegExp(`^${path.replace(/[[\].]/g, "\\$&")}: expected "provider/model": model "\\w+" is not an alias`)),
      ),
    ]);
  });

  it("R-CF-3: aliases are unique words", () => {
    expect(
      configIssues({
        agents: {
          defaults: {
            models: {
              "openai/gpt-4o": { alias: "fast" },
              "openai/gpt-4o-mini": { alias: "fast" },
              "anthropic/claude-haiku-4-5": { alias: "a/b" },
            },
          },
        },
      }),
    ).toEqual([
      'agents.defaults.models["openai/gpt-4o-mini"].alias: alias "fast" is already used by "openai/gpt-4o"',
      'agents.defaults.models["anthropic/claude-haiku-4-5"].alias: expected an alias word without "/" or spaces',
    ]);
  });

  const apiTable: [api: unknown, valid: boolean][] = [
    ["openai-chat", true],
    // The older name of the same format, as OpenClaw configs write it (R-CF-1).
    ["openai-completions", true],
    ["anthropic-messages", true],
    ["google-generative-ai", true],
    ["ollama", true],
    ["bedrock", true],
    // APIs Detour does not speak load with a warning and the entry is ignored (unsupported-apis.ts, R-CF-1).
    ["openai-responses", true],
    ["bedrock-converse-stream", true],
    [7, false],
  ];
  it.each(apiTable)("R-CF-3: provider api %j loads=%s", (api, valid) => {
    expect(configIssues({ models: { providers: { openai: { api } } } }).length === 0).toBe(valid);
  });

  it('R-CF-3: api "openai-completions" (the older name) and "openai-chat" load as the same wire format, "openai-chat"', () => {
    for (const api of ["openai-completions", "openai-chat"]) {
      const { config, warnings } = parseConfig({ models: { providers: { vllm: { api, baseUrl: "http://127.0.0.1:8000/v1" } } } });
      expect(warnings).toEqual([]);
      expect(config.models.providers.vllm?.api).toBe("openai-chat");
    }
  });

  it("R-CF-3: a provider without built-in defaults needs api and baseUrl; OAuth needs both fields", () => {
    expect(
      configIssues({ models: { providers: { lmstudio: { oauth: { clientId: "x" } }, anthropic: { oauth: { clientId: "mine" } } } } }),
    ).toEqual([
      'models.providers.lmstudio.api: required for "lmstudio", which has no built-in defaults',
      'models.providers.lmstudio.baseUrl: required for "lmstudio", which has no built-in defaults',
      'models.providers.lmstudio.oauth.tokenUrl: required for "lmstudio", which has no built-in OAuth defaults',
    ]);
  });

  it("R-CF-3: provider fields are typed", () => {
    expect(
      configIssues({
        models: {
          providers: {
            "bad id!": { api: "ollama", baseUrl: "http://127.0.0.1:1" },
            openai: {
              baseUrl: "file:///etc/passwd",
              timeoutSeconds: 0,
              cooldowns: "no",
              headers: { "x-a": 1 },
              models: [{ id: "" }, { id: "gpt-4o", contextWindow: 1.5, supportsPrefill: "yes" }],
            },
          },
        },
      }),
    ).toEqual([
      "models.providers.openai.baseUrl: expected an http(s) URL",
      "models.providers.openai.headers.x-a: expected a string, received number",
      "models.providers.openai.timeoutSeconds: expected a number greater than 0",
      "models.providers.openai.cooldowns: expected true or false, received string",
      "models.providers.openai.models[0].id: expected a non-empty string",
      "models.providers.openai.models[1].contextWindow: expected a whole number",
      "models.providers.openai.models[1].supportsPrefill: expected true or false, received string",
      "models.providers[\"bad id!\"]: expected a provider id of letters, digits, '.', '_' or '-'",
    ]);
  });

  it("R-CF-3: auth, agents, cron, gateway and state fields are checked", () => {
    expect(
      configIssues({
        auth: {
          profiles: { "openai:x": { provider: "openai", mode: "oauth", keyRef: { env: "NOT-A-NAME" } } },
          order: { openai: "openai:x" },
        },
        agents: {
          defaults: { modelFailover: { retryBackoffMs: [2000, 100], retrySameProfileOnTimeout: -1 } },
          list: [{ id: "a" }, { id: "a" }],
        },
        cron: { jobs: [{ id: "j", schedule: "61 * * * *", agentId: "a", payload: { message: "go" } }] },
        gateway: { port: 70000, auth: { tokens: [""] } },
        state: { backend: "postgres", redis: { url: "http://x" } },
      }),
    ).toEqual([
      'auth.profiles["openai:x"].keyRef.env: expected an environment variable name',
      "auth.order.openai: expected a list, received string",
      "agents.defaults.modelFailover.retrySameProfileOnTimeout: expected a number at least 0",
      "agents.defaults.modelFailover.retryBackoffMs: expected [min, max] with min not above max",
      "cron.jobs[0].schedule: expected a cron expression (Invalid value for minute: 61)",
      "gateway.port: expected a number at most 65535",
      "gateway.auth.tokens[0]: expected a non-empty string",
      'state.backend: expected one of "sqlite", "redis", "memory"',
      "state.redis.url: expected a redis:// or rediss:// URL",
      'agents.list[1].id: duplicate agent id "a"',
    ]);
  });

  it("R-PO-8 seat limits and the queue parse: whole numbers, at least 1 seat, a queue of 0 means no waiting", () => {
    const { config, warnings } = parseConfig({
      models: { providers: { anthropic: { maxConcurrentPerProfile: 3 } } },
      auth: { profiles: { "anthropic:max": { provider: "anthropic", mode: "oauth", maxConcurrent: 2 } } },
      gateway: { queueTimeoutSeconds: 0, queueMax: 0 },
    });
    // They are enforced now: a limit that is set is no longer named in a warning.
    expect(warnings.filter((warning) => warning.includes("maxConcurrent"))).toEqual([]);
    expect(config.models.providers.anthropic?.maxConcurrentPerProfile).toBe(3);
    expect(config.auth.profiles["anthropic:max"]?.maxConcurrent).toBe(2);
    expect(config.gateway).toMatchObject({ queueTimeoutSeconds: 0, queueMax: 0 });
    expect(
      configIssues({
        models: { providers: { anthropic: { maxConcurrentPerProfile: 1.5 } } },
        auth: { profiles: { "anthropic:max": { provider: "anthropic", mode: "oauth", maxConcurrent: 0 } } },
        gateway: { queueTimeoutSeconds: -1, queueMax: 2.5 },
      }),
    ).toEqual([
      "models.providers.anthropic.maxConcurrentPerProfile: expected a whole number",
      'auth.profiles["anthropic:max"].maxConcurrent: expected a number greater than 0',
      "gateway.queueTimeoutSeconds: expected a number at least 0",
      "gateway.queueMax: expected a whole number",
    ]);
  });

  it("R-CF-3: a redis backend with its url parses, keyPrefix defaults to detour", () => {
    const { config } = parseConfig({ state: { backend: "redis", redis: { url: "redis://127.0.0.1:6379" } } });
    expect(config.state).toEqual({ backend: "redis", redis: { url: "redis://127.0.0.1:6379", keyPrefix: "detour" } });
  });

  it("R-CF-2: the TypeScript types come from the schema", () => {
    expectTypeOf<DetourConfig["gateway"]["port"]>().toEqualTypeOf<number>();
    expectTypeOf<DetourConfig["agents"]["defaults"]["model"]["fallbacks"]>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<DetourConfigInput>().toHaveProperty("gateway");
    expectTypeOf<{}>().toMatchTypeOf<DetourConfigInput>();
  });
});
