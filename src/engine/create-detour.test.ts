import { describe, expect, it, vi } from "vitest";
import { ConfigError, FailoverError } from "../core/errors.js";
import type { StateStore } from "../ports/state-store.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { ScriptedProvider, httpError, success } from "../testing/scripted-provider.js";
import { SeededRandom } from "../testing/seeded-random.js";
import type { AttemptContext } from "../runner/attempt.js";
import { createDetour } from "./create-detour.js";
import { DetourArgumentError, DetourClosedError } from "./engine-errors.js";

const CONFIG = { agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } } } };

async function setup(options: { config?: object; env?: Record<string, string>; discoverEnvCredentials?: boolean } = {}) {
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-a" } });
  await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-b" } });
  const clock = new FakeClock();
  const detour = await createDetour({
    config: options.config ?? CONFIG,
    store,
    clock,
    random: new SeededRandom(1),
    env: options.env ?? {},
    discoverEnvCredentials: options.discoverEnvCredentials,
  });
  const openai = new ScriptedProvider({ id: "openai" });
  const anthropic = new ScriptedProvider({ id: "anthropic" });
  const attempt = ScriptedProvider.route([openai, anthropic]);
  return { store, clock, detour, openai, anthropic, attempt };
}

describe("createDetour", () => {
  it("validates a config object and lists every invalid path (R-CF-2)", async () => {
    await expect(
      createDetour({ config: { agents: { defaults: { model: { fallbacks: ["not a ref"] } } } }, store: new MemoryStateStore(), env: {} }),
    ).rejects.toBeInstanceOf(ConfigError);
  });

  it("hands the attempt the provider, model, profile, credential, signal and run position", async () => {
    const { detour } = await setup();
    const seen: AttemptContext[] = [];
    const out = await detour.runWith({
      attempt: async (context) => {
        seen.push(context);
        return "answer";
      },
    });
    expect(out).toMatchObject({ result: "answer", provider: "openai", model: "gpt-5", profileId: "openai:a", attempts: [] });
    expect(seen[0]).toMatchObject({
      provider: "openai",
      model: "gpt-5",
      profile: { id: "openai:a" },
      profileId: "openai:a",
      credential: { type: "api_key", key: "sk-a" },
      candidateIndex: 1,
      probe: false,
      runId: out.runId,
    });
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("rejects a runWith without attempt and an unsafe agent id with a typed error", async () => {
    const { detour, attempt } = await setup();
    await expect(detour.runWith({} as never)).rejects.toBeInstanceOf(DetourArgumentError);
    await expect(detour.runWith({ agentId: "../etc", attempt })).rejects.toMatchObject({ code: "DETOUR_INVALID_ARGUMENT" });
  });

  it("status() lists profiles with stats and usability, lastGood and sessions — never a key", async () => {
    const { detour, openai, attempt } = await setup();
    openai.always({}, httpError(429, "Too Many Requests"));
    await detour.runWith({ sessionKey: "s1", attempt });
    const status = await detour.status();
    const main = status.agents[0];
    expect(main?.agentId).toBe("main");
    expect(main?.profiles.find((profile) => profile.id === "openai:a")).toMatchObject({
      provider: "openai",
      type: "api_key",
      origin: "store",
      usable: false,
      unusableReason: "rate_limit",
      stats: { errorCount: 1 },
    });
    expect(main?.profiles.find((profile) => profile.id === "anthropic:a")).toMatchObject({ usable: true, lastGood: true });
    expect(main?.lastGood).toEqual({ anthropic: "anthropic:a" });
    expect(main?.sessions[0]).toMatchObject({ sessionKey: "s1", selectedModel: "anthropic/claude-sonnet-4-6" });
    expect(JSON.stringify(status)).not.toContain("sk-");
  });

  it("R-CD-8: profiles.reset clears every window of a profile at once", async () => {
    const { detour, store, openai, attempt } = await setup();
    openai.always({}, httpError(402, "Your credit balance is too low"));
    await detour.runWith({ attempt });
    expect((await detour.profiles.list({ provider: "openai" }))[0]?.usable).toBe(false);
    await detour.profiles.reset("openai:a");
    expect((await detour.profiles.list({ provider: "openai" }))[0]?.usable).toBe(true);
    expect(await store.getUsageStats("openai:a")).toEqual({});
  });

  it("R-ST-2: reportPostCommitFailure classifies a failure after the commit point and records it on the profile", async () => {
    const { detour, store } = await setup();
    const result = await detour.reportPostCommitFailure({
      provider: "openai",
      model: "gpt-5",
      profileId: "openai:a",
      error: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
    });
    expect(result).toMatchObject({ recorded: true, classification: { reason: "timeout" } });
    expect(await store.getUsageStats("openai:a")).toMatchObject({ cooldownReason: "timeout", errorCount: 1 });
  });

  it("R-EC-7 / R-CD-5: a client disconnect or an OpenRouter failure after commit records nothing", async () => {
    const { detour, store } = await setup();
    const aborted = await detour.reportPostCommitFailure({
      provider: "openai",
      model: "gpt-5",
      profileId: "openai:a",
      error: new DOMException("aborted", "AbortError"),
      callerAborted: true,
    });
    expect(aborted.recorded).toBe(false);
    const openrouter = await detour.reportPostCommitFailure({
      provider: "openrouter",
      model: "x/y",
      profileId: "openrouter:a",
      error: Object.assign(new Error("Rate limit exceeded"), { status: 429 }),
    });
    expect(openrouter).toMatchObject({ recorded: false, classification: { reason: "rate_limit" } });
    expect(await store.getAllUsageStats()).toEqual({});
  });

  it("on() delivers typed events, unsubscribes, and a throwing listener never breaks a run", async () => {
    const { detour, attempt } = await setup();
    const seen: string[] = [];
    const off = detour.on("run_finished", (event) => seen.push(event.outcome));
    detour.on("*", () => {
      throw new Error("listener bug");
    });
    await detour.runWith({ attempt });
    off();
    await detour.runWith({ attempt });
    expect(seen).toEqual(["succeeded"]);
  });

  it("reads a profile's key from keyRef.env (R-AP-2) and, when asked, the usual variables (R-CF-5)", async () => {
    const { detour } = await setup({
      config: {
        ...CONFIG,
        auth: { profiles: { "openai:env-key": { provider: "openai", mode: "api_key", keyRef: { env: "MY_OPENAI" } } } },
      },
      env: { MY_OPENAI: "sk-from-env" },
    });
    const credentials: unknown[] = [];
    await detour.runWith({ attempt: async (context) => void credentials.push(context.credential) });
    expect(credentials[0]).toEqual({ type: "api_key", provider: "openai", key: "sk-from-env" });

    const store = new MemoryStateStore();
    const discovering = await createDetour({
      config: CONFIG,
      store,
      env: { ANTHROPIC_API_KEY: "sk-ant-env" },
      discoverEnvCredentials: true,
      clock: new FakeClock(),
    });
    const profiles = await discovering.profiles.list();
    expect(profiles.map((profile) => [profile.id, profile.origin])).toEqual([["anthropic:env", "env"]]);
  });

  it("R-PO-5: a completed compaction re-chooses the session's auto pin on the next run", async () => {
    const { detour, store } = await setup();
    await store.upsertProfile({ id: "openai:b", credential: { type: "api_key", provider: "openai", key: "sk-c" } });
    const profileOf = async () => (await detour.runWith({ sessionKey: "s1", attempt: async () => "ok" })).profileId;
    expect(await profileOf()).toBe("openai:a");
    expect(await profileOf()).toBe("openai:a");
    await detour.sessions.markCompacted("s1");
    expect(await profileOf()).toBe("openai:b");
    expect((await detour.sessions.get("s1"))?.authProfileOverrideCompactionCount).toBe(1);
  });

  it("agents have separate sessions and stores when a factory is given", async () => {
    const stores = new Map<string, StateStore>();
    const detour = await createDetour({
      config: CONFIG,
      env: {},
      clock: new FakeClock(),
      store: (agentId) => {
        const store = new MemoryStateStore();
        stores.set(agentId, store);
        return store;
      },
    });
    await detour.runWith({ agentId: "ops", sessionKey: "s1", model: "ollama/qwen3", attempt: async () => "ok" });
    await detour.sessions.patch("s1", { model: "ollama/qwen3" }, { agentId: "ops" });
    expect(await detour.sessions.get("s1", { agentId: "ops" })).toMatchObject({ sessionKey: "s1", modelOverride: "qwen3" });
    expect(await detour.sessions.get("s1")).toBeUndefined();
    expect([...stores.keys()].sort()).toEqual(["main", "ops"]);
  });

  it("close() closes the stores it opened, leaves injected ones open, and refuses later calls", async () => {
    const injected = new MemoryStateStore();
    const closeSpy = vi.spyOn(injected, "close");
    const detour = await createDetour({ config: CONFIG, store: injected, env: {}, clock: new FakeClock() });
    await detour.runWith({ attempt: async () => "ok" });
    await detour.close();
    expect(closeSpy).not.toHaveBeenCalled();
    await expect(detour.runWith({ attempt: async () => "ok" })).rejects.toBeInstanceOf(DetourClosedError);

    const owned = await createDetour({ config: { ...CONFIG, state: { backend: "memory" } }, env: {}, clock: new FakeClock() });
    const store = await owned.store();
    const ownedSpy = vi.spyOn(store, "close");
    await owned.close();
    expect(ownedSpy).toHaveBeenCalledTimes(1);
  });

  it("the run deadline (agents.defaults.timeoutSeconds) stops a run with a timeout error and records nothing", async () => {
    const clock = new FakeClock();
    const store = new MemoryStateStore();
    await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-a" } });
    const detour = await createDetour({
      config: {
        agents: { defaults: { model: { primary: "openai/gpt-5" }, timeoutSeconds: 30 } },
        models: { providers: { openai: { timeoutSeconds: 600 } } },
      },
      store,
      clock,
      env: {},
    });
    const running = detour.runWith({ attempt: () => new Promise(() => {}) });
    const settled = running.then(
      () => undefined,
      (error: unknown) => error,
    );
    await clock.advanceAsync(30_000);
    const error = await settled;
    expect(error).toBeInstanceOf(FailoverError);
    expect(error).toMatchObject({ reason: "timeout" });
    expect((error as Error).message).toContain("30 s");
    expect(await store.getAllUsageStats()).toEqual({});
  });

  it("exposes the providers it was given by id", async () => {
    const openai = new ScriptedProvider({ id: "openai" });
    openai.always({}, success("hi"));
    const detour = await createDetour({ config: CONFIG, store: new MemoryStateStore(), env: {}, providers: [openai] });
    expect(detour.providers.get("openai")).toBe(openai);
  });

  describe("R-GW-3: bare model names in the library mean what they mean in the gateway", () => {
    it("R-GW-3: runWith reads a bare model and bare fallbacks as the provider that offers them, not the primary's provider", async () => {
      const { detour } = await setup();
      const seen: string[] = [];
      const out = await detour.runWith({
        model: "claude-sonnet-4",
        fallbacks: ["gpt-4o"],
        attempt: async (context) => {
          seen.push(`${context.provider}/${context.model}`);
          if (context.provider === "anthropic")
            throw new FailoverError("Overloaded", { reason: "overloaded", provider: "anthropic", model: context.model, status: 529 });
          return "answer";
        },
      });
      expect(seen).toEqual(["anthropic/claude-sonnet-4", "openai/gpt-4o"]);
      expect(out).toMatchObject({ provider: "openai", model: "gpt-4o" });
    });

    it("R-GW-3: an unknown or ambiguous bare name is refused before any call, listing what would work", async () => {
      const { detour } = await setup();
      const attempt = vi.fn(async () => "answer");
      await expect(detour.runWith({ model: "gpt-4o-mni", attempt })).rejects.toMatchObject({
        code: "DETOUR_MODEL_SELECTION_INVALID",
        message: expect.stringContaining('did you mean "openai/gpt-4o-mini"?'),
      });
      expect(attempt).not.toHaveBeenCalled();
    });

    it("R-SO-4: sessions.patch resolves a bare name and refuses an unknown provider with the known ones", async () => {
      const { detour } = await setup();
      const patched = await detour.sessions.patch("s1", { model: "claude-sonnet-4" });
      expect(patched).toMatchObject({ providerOverride: "anthropic", modelOverride: "claude-sonnet-4" });
      await expect(detour.sessions.patch("s1", { model: "nope/x" })).rejects.toMatchObject({
        code: "DETOUR_MODEL_SELECTION_INVALID",
        message: expect.stringContaining('unknown provider "nope"; known providers: anthropic'),
      });
    });
  });
});
