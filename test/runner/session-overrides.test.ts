/**
 * Scenario tests of session overrides (SPEC §9) and notices (SPEC §10) through the library API.
 */
import { describe, expect, it } from "vitest";
import { SESSION_OWNED_FIELDS } from "../../src/core/types.js";
import { MemoryStateStore } from "../../src/state/memory/memory-store.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { httpError } from "../../src/testing/scripted-provider.js";
import { FALLBACK, PRIMARY, apiKey, makeHarness, succeeded } from "./harness.js";

const MINUTE = 60_000;
const FALLBACK_NOTICE = "↪️ Model Fallback: anthropic/claude-sonnet-4-6 (selected openai/gpt-5; 429 Too Many Requests)";
const CLEARED_NOTICE = "↪️ Model Fallback cleared: openai/gpt-5 (was anthropic/claude-sonnet-4-6)";

async function onFallback() {
  const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") } });
  h.provider("openai").script({}, httpError(429, "Too Many Requests"));
  const first = succeeded(await h.runToEnd({ sessionKey: "s1" }));
  return { h, first };
}

describe("session overrides", () => {
  it("R-SO-1: the fallback path writes only the owned fields (and the probe anchor)", async () => {
    const h = await makeHarness();
    await h.store.patchSession("s1", { compactionCount: 4, updatedAt: 123 });
    h.provider("openai").always({}, httpError(429, "rate limit"));
    succeeded(await h.runToEnd({ sessionKey: "s1" }));
    const entry = await h.store.getSession("s1");
    const allowed = new Set<string>([...SESSION_OWNED_FIELDS, "fallbackProbeAnchorAt", "sessionKey", "compactionCount", "updatedAt"]);
    expect(Object.keys(entry ?? {}).filter((key) => !allowed.has(key))).toEqual([]);
    expect(entry).toMatchObject({ compactionCount: 4, updatedAt: 123 });
    expect(entry?.pendingLiveSwitch).toBeUndefined();
  });

  it("R-SO-2: the fallback override is persisted before the candidate runs", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(503, "Service Unavailable"));
    let seen: unknown;
    const attempt = async (context: Parameters<typeof h.attempt>[0]) => {
      if (context.provider === "anthropic") seen = await h.store.getSession("s1");
      return h.attempt(context);
    };
    succeeded(await h.drive(h.detour.runWith({ sessionKey: "s1", attempt })));
    expect(seen).toMatchObject({
      providerOverride: "anthropic",
      modelOverride: "claude-sonnet-4-6",
      modelOverrideSource: "auto",
      modelOverrideFallbackOriginProvider: "openai",
      modelOverrideFallbackOriginModel: "gpt-5",
    });
  });

  it("R-SO-2: a failed candidate rolls back narrowly, leaving a concurrent manual /model intact", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k"), "google:a": apiKey("google", "g") },
      config: { agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK, "google/gemini-2.5-pro"] } } } },
    });
    h.provider("openai").always({}, httpError(503, "Service Unavailable"));
    const attempt = async (context: Parameters<typeof h.attempt>[0]) => {
      if (context.provider === "anthropic") {
        // The user switches models while the fallback candidate is in flight, then the candidate fails.
        await h.detour.sessions.patch("s1", { model: "openai/gpt-4o" });
        throw Object.assign(new Error("Overloaded"), { status: 529 });
      }
      return h.attempt(context);
    };
    const out = succeeded(await h.drive(h.detour.runWith({ sessionKey: "s1", attempt })));
    expect(out.provider).toBe("google");
    const entry = await h.store.getSession("s1");
    expect(entry).toMatchObject({
      providerOverride: "openai",
      modelOverride: "gpt-4o",
      modelOverrideSource: "user",
      pendingLiveSwitch: true,
    });
    expect(entry?.modelOverrideFallbackOriginModel).toBeUndefined();
    const rollback = h.eventsOf("session_override").find((event) => event.action === "fallback_rolled_back" && event.conflicted.length > 0);
    expect(rollback?.conflicted).toEqual(expect.arrayContaining(["providerOverride", "modelOverride", "modelOverrideSource"]));
  });

  it("R-SO-2: a failed fallback candidate with nobody else writing restores the previous values exactly", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") } });
    h.provider("openai").always({}, httpError(503, "Service Unavailable"));
    h.provider("anthropic").always({}, httpError(529, "Overloaded"));
    await h.store.patchSession("s1", { compactionCount: 1 });
    const before = await h.store.getSession("s1");
    await h.runToEnd({ sessionKey: "s1" });
    expect(await h.store.getSession("s1")).toEqual(before);
  });

  it("R-SO-3: the auto override stays selected on later turns, without a per-message primary probe", async () => {
    const { h, first } = await onFallback();
    expect(first.notice).toBe(FALLBACK_NOTICE);
    await h.clock.advanceAsync(MINUTE);
    const second = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(second.provider).toBe("anthropic");
    expect(second.notice).toBeUndefined();
    expect(h.provider("openai").calls).toHaveLength(1);
  });

  it("R-SO-3: after 5 minutes the origin is probed; success clears the override with the cleared notice", async () => {
    const { h } = await onFallback();
    await h.clock.advanceAsync(5 * MINUTE - 1);
    succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(h.provider("openai").calls).toHaveLength(1);
    await h.clock.advanceAsync(1);
    const back = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(back).toMatchObject({ provider: "openai", model: "gpt-5" });
    expect(back.notice).toBe(CLEARED_NOTICE);
    const entry = await h.store.getSession("s1");
    expect(entry?.modelOverride).toBeUndefined();
    expect(entry?.modelOverrideSource).toBeUndefined();
    expect(entry?.fallbackProbeAnchorAt).toBeUndefined();
  });

  it("R-SO-3: a failed origin probe keeps the override and restarts the 5-minute interval", async () => {
    const { h } = await onFallback();
    h.provider("openai").always({}, httpError(429, "Too Many Requests"));
    await h.clock.advanceAsync(5 * MINUTE);
    const probed = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(probed.provider).toBe("anthropic");
    expect(probed.notice).toBeUndefined();
    expect(h.provider("openai").calls).toHaveLength(2);
    await h.clock.advanceAsync(4 * MINUTE);
    succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(h.provider("openai").calls).toHaveLength(2);
    await h.clock.advanceAsync(MINUTE);
    succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(h.provider("openai").calls).toHaveLength(3);
    expect((await h.store.getSession("s1"))?.modelOverrideSource).toBe("auto");
  });

  it("R-SO-3: sessions.reset clears auto overrides and auto pins at once and keeps user ones", async () => {
    const { h } = await onFallback();
    await h.detour.sessions.reset("s1");
    const cleared = await h.store.getSession("s1");
    for (const field of SESSION_OWNED_FIELDS) expect(cleared?.[field], field).toBeUndefined();

    await h.detour.sessions.patch("s2", { model: FALLBACK, profile: "anthropic:a" });
    await h.detour.sessions.reset("s2");
    expect(await h.store.getSession("s2")).toMatchObject({
      modelOverride: "claude-sonnet-4-6",
      modelOverrideSource: "user",
      authProfileOverride: "anthropic:a",
      authProfileOverrideSource: "user",
    });
  });

  it("R-SO-3: a heartbeat without heartbeat.model clears an auto override whose origin is no longer the default", async () => {
    const store = new MemoryStateStore();
    const clock = new FakeClock();
    const profiles = { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k"), "google:a": apiKey("google", "g") };
    const before = await makeHarness({ store, clock, profiles });
    before.provider("openai").script({}, httpError(429, "Too Many Requests"));
    succeeded(await before.runToEnd({ sessionKey: "s1" }));
    expect((await store.getSession("s1"))?.modelOverrideSource).toBe("auto");

    const after = await makeHarness({
      store,
      clock,
      profiles,
      config: { agents: { defaults: { model: { primary: "google/gemini-2.5-pro" } } } },
    });
    const out = succeeded(await after.runToEnd({ sessionKey: "s1", source: "heartbeat" }));
    expect(out.provider).toBe("google");
    const entry = await store.getSession("s1");
    expect(entry?.modelOverride).toBeUndefined();
    expect(entry?.pendingLiveSwitch).toBeUndefined();
  });

  it("R-SO-4: only user-driven changes mark a pending live switch, and a run reconciles it", async () => {
    const { h } = await onFallback();
    expect((await h.store.getSession("s1"))?.pendingLiveSwitch).toBeUndefined();
    await h.detour.sessions.patch("s1", { model: "openai/gpt-5-mini" });
    expect(await h.detour.sessions.get("s1")).toMatchObject({
      pendingLiveSwitch: true,
      modelOverrideSource: "user",
      selectedModel: "openai/gpt-5-mini",
    });
    // The persisted user override beats the (stale) model the client keeps sending.
    const out = succeeded(await h.runToEnd({ sessionKey: "s1", model: PRIMARY }));
    expect(out.model).toBe("gpt-5-mini");
    expect((await h.store.getSession("s1"))?.pendingLiveSwitch).toBeUndefined();
  });

  it("R-SO-4: /status data shows the selected model and, on an auto fallback, the model it stands in for", async () => {
    const { h } = await onFallback();
    expect(await h.detour.sessions.get("s1")).toMatchObject({ selectedModel: FALLBACK, fallbackOrigin: PRIMARY });
  });
});

describe("notices", () => {
  it("R-NT-1: the fallback and cleared notices are emitted once per state change, never on sticky turns", async () => {
    const { h, first } = await onFallback();
    expect(first.notice).toBe(FALLBACK_NOTICE);
    for (let turn = 0; turn < 3; turn += 1) {
      await h.clock.advanceAsync(MINUTE);
      expect(succeeded(await h.runToEnd({ sessionKey: "s1" })).notice).toBeUndefined();
    }
    await h.clock.advanceAsync(2 * MINUTE);
    expect(succeeded(await h.runToEnd({ sessionKey: "s1" })).notice).toBe(CLEARED_NOTICE);
    expect(succeeded(await h.runToEnd({ sessionKey: "s1" })).notice).toBeUndefined();
    expect(h.eventsOf("notice").map((event) => [event.kind, event.text])).toEqual([
      ["fallback", FALLBACK_NOTICE],
      ["cleared", CLEARED_NOTICE],
    ]);
  });

  it("R-NT-1: the reason names the first attempt and counts the others", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k"), "google:a": apiKey("google", "g") },
      config: { agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK, "google/gemini-2.5-pro"] } } } },
    });
    h.provider("openai").always({}, httpError(402, "Your credit balance is too low"));
    h.provider("anthropic").always({}, httpError(529, "Overloaded"));
    const out = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(out.notice).toBe("↪️ Model Fallback: google/gemini-2.5-pro (selected openai/gpt-5; billing (+1 more attempts))");
  });

  it("R-NT-2: the notice is returned beside the result and emitted as an event, not mixed into the result", async () => {
    const { h, first } = await onFallback();
    expect(JSON.stringify(first.result)).not.toContain("Model Fallback");
    expect(h.eventsOf("notice")).toMatchObject([
      { kind: "fallback", text: first.notice, sessionId: "s1", selectedModel: PRIMARY, activeModel: FALLBACK },
    ]);
  });
});
