import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import {
  ORIGIN_PROBE_INTERVAL_MS,
  OverrideTransaction,
  claimOriginProbe,
  clearAutoOverrides,
  fallbackOverrideValues,
  userSelectionPatch,
} from "./session-overrides.js";

const primary = { provider: "openai", model: "gpt-5" };
const fallback = { provider: "anthropic", model: "claude-sonnet-4-6" };

describe("session overrides", () => {
  it("R-SO-2: rollback restores only the fields that still hold what the candidate wrote", async () => {
    const store = new MemoryStateStore();
    await store.patchSession("s1", { authProfileOverride: "openai:a", authProfileOverrideSource: "auto", compactionCount: 2 });
    const before = await store.getSession("s1");
    const transaction = new OverrideTransaction(store, "s1");
    const values = fallbackOverrideValues({ entry: before, candidate: fallback, requested: primary, pinBelongsToCandidate: false, now: 5 });
    const written = await transaction.write(before, values);
    expect(written.conflicted).toEqual([]);
    expect(written.entry).toMatchObject({ providerOverride: "anthropic", modelOverrideSource: "auto", fallbackProbeAnchorAt: 5 });
    expect(written.entry.authProfileOverride).toBeUndefined();

    // A concurrent `/model` rewrites the model fields.
    await store.patchSession("s1", userSelectionPatch({ model: { provider: "google", model: "gemini" } }));
    const rolledBack = await transaction.rollback();
    expect(rolledBack?.conflicted).toEqual(expect.arrayContaining(["providerOverride", "modelOverride", "modelOverrideSource"]));
    expect(await store.getSession("s1")).toMatchObject({
      providerOverride: "google",
      modelOverride: "gemini",
      modelOverrideSource: "user",
      authProfileOverride: "openai:a",
      authProfileOverrideSource: "auto",
      compactionCount: 2,
    });
    expect(await transaction.rollback()).toBeUndefined();
  });

  it("R-SO-2: an existing auto fallback keeps its origin and anchor; a pin of the candidate's provider is kept", () => {
    const entry = {
      sessionKey: "s1",
      providerOverride: "anthropic",
      modelOverride: "claude-sonnet-4-6",
      modelOverrideSource: "auto" as const,
      modelOverrideFallbackOriginProvider: "openai",
      modelOverrideFallbackOriginModel: "gpt-5",
      fallbackProbeAnchorAt: 100,
      authProfileOverride: "google:a",
    };
    const values = fallbackOverrideValues({
      entry,
      candidate: { provider: "google", model: "gemini" },
      requested: fallback,
      pinBelongsToCandidate: true,
      now: 999,
    });
    expect(values).toEqual({
      providerOverride: "google",
      modelOverride: "gemini",
      modelOverrideSource: "auto",
      modelOverrideFallbackOriginProvider: "openai",
      modelOverrideFallbackOriginModel: "gpt-5",
      fallbackProbeAnchorAt: 100,
    });
  });

  it("R-SO-3: of two concurrent turns only one claims the origin probe, and only after 5 minutes", async () => {
    const store = new MemoryStateStore();
    const entry = await store.patchSession("s1", { modelOverrideSource: "auto", fallbackProbeAnchorAt: 0 });
    expect(await claimOriginProbe(store, "s1", entry, ORIGIN_PROBE_INTERVAL_MS - 1)).toBe(false);
    const claims = await Promise.all([
      claimOriginProbe(store, "s1", entry, ORIGIN_PROBE_INTERVAL_MS),
      claimOriginProbe(store, "s1", entry, ORIGIN_PROBE_INTERVAL_MS),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await store.getSession("s1"))?.fallbackProbeAnchorAt).toBe(ORIGIN_PROBE_INTERVAL_MS);
  });

  it("R-SO-3: clearing removes auto overrides and auto pins, never user ones", async () => {
    const store = new MemoryStateStore();
    const entry = await store.patchSession("s1", {
      ...userSelectionPatch({ model: primary }),
      authProfileOverride: "openai:a",
      authProfileOverrideSource: "auto",
      authProfileOverrideCompactionCount: 0,
    });
    await clearAutoOverrides(store, "s1", entry);
    const after = await store.getSession("s1");
    expect(after).toMatchObject({ modelOverride: "gpt-5", modelOverrideSource: "user" });
    expect(after?.authProfileOverride).toBeUndefined();
  });

  it("R-SO-4: a user selection is strict and marks a pending live switch", () => {
    expect(userSelectionPatch({ model: fallback, profileId: "anthropic:a" })).toMatchObject({
      providerOverride: "anthropic",
      modelOverride: "claude-sonnet-4-6",
      modelOverrideSource: "user",
      authProfileOverride: "anthropic:a",
      authProfileOverrideSource: "user",
      pendingLiveSwitch: true,
    });
    expect(userSelectionPatch({})).toEqual({});
  });

  it("R-PO-5 a reset clears the automatic pins parked for other providers and keeps the user's", async () => {
    const store = new MemoryStateStore();
    await store.patchSession("s-parked", {
      authProfileOverride: "openai:a",
      authProfileOverrideSource: "user",
      authProfilePinsByProvider: {
        anthropic: { profileId: "anthropic:x", source: "auto", compactionCount: 0 },
        google: { profileId: "google:me", source: "user" },
      },
    });
    await clearAutoOverrides(store, "s-parked", await store.getSession("s-parked"));
    expect(await store.getSession("s-parked")).toEqual({
      sessionKey: "s-parked",
      authProfileOverride: "openai:a",
      authProfileOverrideSource: "user",
      authProfilePinsByProvider: { google: { profileId: "google:me", source: "user" } },
    });
  });
});
