import { describe, expect, it } from "vitest";
import { orderProfiles, type OrderProfilesInput } from "../order-profiles.js";
import { resolveSessionPin } from "../session-pin.js";
import type { Credential } from "../types.js";
import { assessHeadroom, type HeadroomSettings } from "./assess.js";
import type { HeadroomReading } from "./reading.js";

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const key = (value: string): Credential => ({ type: "api_key", provider: "openai", key: value });
const oauth = (): Credential => ({ type: "oauth", provider: "openai", access: "at", refresh: "rt", expires: T0 + HOUR });
const profiles = ["openai:a", "openai:b", "openai:c"].map((id) => ({ id, credential: key(id) }));
const SPREAD: HeadroomSettings = { minRemaining: 0.05, strategy: "spread" };
const DRAIN: HeadroomSettings = { minRemaining: 0.05, strategy: "drain-soonest-reset" };

function requests(remaining: number, limit: number, resetInMs = MINUTE, extra: Partial<HeadroomReading> = {}): HeadroomReading {
  return {
    window: "requests",
    family: "openai",
    model: "gpt-4o",
    remainingShare: remaining / limit,
    limit,
    remaining,
    resetAt: T0 + resetInMs,
    readAt: T0,
    ...extra,
  };
}

function order(readings: Record<string, HeadroomReading[]>, settings: HeadroomSettings = SPREAD, extra: Partial<OrderProfilesInput> = {}) {
  return orderProfiles({
    provider: "openai",
    model: "gpt-4o",
    now: T0,
    profiles,
    usageStats: {},
    headroom: { readings, settings },
    ...extra,
  });
}

describe("R-PO-7: nearly spent profiles go after every profile with headroom", () => {
  it("R-PO-7: a profile below minRemaining goes last, is still usable, and is reported as passed over", () => {
    const result = order({ "openai:a": [requests(0, 5)], "openai:b": [requests(10, 20)], "openai:c": [requests(30, 40)] });
    expect(result.usable).toEqual(["openai:c", "openai:b", "openai:a"]);
    expect(result.nearlySpent).toEqual(["openai:a"]);
    // Round robin alone (all never used) would have tried openai:a first.
    expect(result.passedOver).toEqual(["openai:a"]);
    expect(result.headroom["openai:a"]).toMatchObject({ nearlySpent: true, why: "below_min_remaining", window: "requests" });
  });

  it("R-PO-7: a window status that warns or rejects makes a profile nearly spent whatever its share", () => {
    const warning: HeadroomReading = {
      window: "unified-5h",
      family: "anthropic-unified",
      remainingShare: 0.3,
      status: "allowed_warning",
      resetAt: T0 + HOUR,
      readAt: T0,
    };
    const result = order({ "openai:a": [warning] });
    expect(result.nearlySpent).toEqual(["openai:a"]);
    expect(result.headroom["openai:a"]?.why).toBe("window_status");
    expect(result.usable).toEqual(["openai:b", "openai:c", "openai:a"]);
  });

  it("R-PO-7: when every profile is nearly spent they are all still offered, the soonest reset first", () => {
    const result = order({
      "openai:a": [requests(0, 5, 50_000)],
      "openai:b": [requests(0, 20, 10_000)],
      "openai:c": [requests(1, 40, 30_000)],
    });
    expect(result.usable).toEqual(["openai:b", "openai:c", "openai:a"]);
    expect(result.unusable).toEqual([]);
    expect(result.passedOver).toEqual([]);
  });

  it("R-PO-7: a reading past its reset is ignored — the profile is back in line", () => {
    const result = order({ "openai:a": [requests(0, 5, -1)] });
    expect(result.nearlySpent).toEqual([]);
    expect(result.usable).toEqual(["openai:a", "openai:b", "openai:c"]);
  });

  it("R-PO-7: a fresh reading with room replaces the spent one (latest reading decides)", () => {
    const spent = order({ "openai:a": [requests(0, 5)] });
    const refreshed = order({ "openai:a": [requests(5, 5)] });
    expect(spent.nearlySpent).toEqual(["openai:a"]);
    expect(refreshed.nearlySpent).toEqual([]);
  });

  it("R-PO-7: a per-model reading steers only runs of that model; account-wide readings steer every model", () => {
    const perModel = { "openai:a": [requests(0, 5)] };
    expect(order(perModel, SPREAD, { model: "gpt-4o-mini" }).nearlySpent).toEqual([]);
    const accountWide = { "openai:a": [requests(0, 5, MINUTE, { model: undefined, window: "key-requests" })] };
    expect(order(accountWide, SPREAD, { model: "gpt-4o-mini" }).nearlySpent).toEqual(["openai:a"]);
  });

  it("R-PO-7: an explicit order is kept among profiles with room; only nearly spent ones move back", () => {
    const result = order({ "openai:a": [requests(10, 40)], "openai:b": [requests(0, 20)], "openai:c": [requests(40, 40)] }, SPREAD, {
      configuredOrder: ["openai:b", "openai:a", "openai:c"],
    });
    expect(result.usable).toEqual(["openai:a", "openai:c", "openai:b"]);
    expect(result.passedOver).toEqual(["openai:b"]);
  });

  it("R-PO-7: without headroom input the order is plain R-PO-3 round robin", () => {
    const result = orderProfiles({ provider: "openai", model: "gpt-4o", now: T0, profiles, usageStats: {} });
    expect(result.usable).toEqual(["openai:a", "openai:b", "openai:c"]);
    expect(result.nearlySpent).toEqual([]);
  });
});

describe("R-PO-7: auth.headroom.strategy", () => {
  it("R-PO-7: spread prefers the most remaining share; a profile without a reading counts as full", () => {
    const result = order({ "openai:a": [requests(3, 5)], "openai:b": [requests(18, 20)] });
    expect(result.usable).toEqual(["openai:c", "openai:b", "openai:a"]);
  });

  it("R-PO-7: drain-soonest-reset uses the window that resets soonest until it is nearly spent", () => {
    const readings = {
      "openai:a": [requests(30, 40, 4 * HOUR)],
      "openai:b": [requests(2, 40, 1 * HOUR)],
      "openai:c": [requests(39, 40, 3 * HOUR)],
    };
    expect(order(readings, DRAIN).usable).toEqual(["openai:b", "openai:c", "openai:a"]);
    const drained = { ...readings, "openai:b": [requests(1, 40, 1 * HOUR)] };
    expect(order(drained, DRAIN).usable).toEqual(["openai:c", "openai:a", "openai:b"]);
  });

  it("R-PO-7: drain-soonest-reset tries a profile without a reading first, to learn when its window resets", () => {
    const readings = { "openai:a": [requests(30, 40, HOUR)], "openai:c": [requests(30, 40, 2 * HOUR)] };
    expect(order(readings, DRAIN).usable).toEqual(["openai:b", "openai:a", "openai:c"]);
  });

  it("R-PO-7: the strategy ranks after the credential type (subscriptions before metered keys)", () => {
    const mixed = [
      { id: "openai:key", credential: key("k") },
      { id: "openai:sub", credential: oauth() },
    ];
    const result = order({ "openai:sub": [requests(10, 40)] }, SPREAD, { profiles: mixed });
    expect(result.usable).toEqual(["openai:sub", "openai:key"]);
  });
});

describe("R-PO-7: assessHeadroom", () => {
  it("R-PO-7: the binding window is the one with the least room; nearly spent names the last spent window", () => {
    const fiveHour: HeadroomReading = {
      window: "unified-5h",
      family: "anthropic-unified",
      remainingShare: 0.4,
      resetAt: T0 + HOUR,
      readAt: T0,
    };
    const sevenDay: HeadroomReading = {
      window: "unified-7d",
      family: "anthropic-unified",
      remainingShare: 0.1,
      resetAt: T0 + 50 * HOUR,
      readAt: T0,
    };
    expect(assessHeadroom([fiveHour, sevenDay], { now: T0, minRemaining: 0.05 })).toEqual({
      remainingShare: 0.1,
      window: "unified-7d",
      resetAt: T0 + 50 * HOUR,
      nearlySpent: false,
    });
    const spentFive = { ...fiveHour, remainingShare: 0.01 };
    expect(assessHeadroom([spentFive, sevenDay], { now: T0, minRemaining: 0.05 })).toMatchObject({
      window: "unified-5h",
      nearlySpent: true,
      why: "below_min_remaining",
    });
    expect(assessHeadroom([], { now: T0, minRemaining: 0.05 })).toBeUndefined();
  });
});

describe("R-PO-7: session pins move before the turn", () => {
  const base = {
    provider: "openai",
    ordered: ["openai:b", "openai:c", "openai:a"],
    usable: ["openai:b", "openai:c", "openai:a"],
    profileProviders: { "openai:a": "openai", "openai:b": "openai", "openai:c": "openai" },
  };

  it("R-PO-7: an auto pin on a nearly spent profile moves to the next profile with headroom", () => {
    const result = resolveSessionPin({
      ...base,
      session: { authProfileOverride: "openai:a", authProfileOverrideSource: "auto", authProfileOverrideCompactionCount: 0 },
      nearlySpent: ["openai:a"],
    });
    expect(result.pinnedProfileId).toBe("openai:b");
    expect(result.strict).toBe(false);
    expect(result.headroomMove).toEqual({ from: "openai:a", to: "openai:b" });
    expect(result.write).toEqual({
      authProfileOverride: "openai:b",
      authProfileOverrideSource: "auto",
      authProfileOverrideCompactionCount: 0,
    });
  });

  it("R-PO-7: the move skips other nearly spent profiles and never lands on one", () => {
    const result = resolveSessionPin({
      ...base,
      ordered: ["openai:c", "openai:a", "openai:b"],
      usable: ["openai:c", "openai:a", "openai:b"],
      session: { authProfileOverride: "openai:a", authProfileOverrideSource: "auto", authProfileOverrideCompactionCount: 0 },
      nearlySpent: ["openai:a", "openai:b"],
    });
    expect(result.pinnedProfileId).toBe("openai:c");
  });

  it("R-PO-7: with no profile with headroom the auto pin stays (nearly spent is not blocked)", () => {
    const result = resolveSessionPin({
      ...base,
      session: { authProfileOverride: "openai:a", authProfileOverrideSource: "auto", authProfileOverrideCompactionCount: 0 },
      nearlySpent: ["openai:a", "openai:b", "openai:c"],
    });
    expect(result).toEqual({ pinnedProfileId: "openai:a", strict: false });
  });

  it("R-PO-7: a user pin stays strict on a nearly spent profile", () => {
    const result = resolveSessionPin({
      ...base,
      session: { authProfileOverride: "openai:a", authProfileOverrideSource: "user" },
      nearlySpent: ["openai:a"],
    });
    expect(result).toEqual({ pinnedProfileId: "openai:a", strict: true });
  });

  it("R-PO-7: a new session is pinned to a profile with headroom", () => {
    const result = resolveSessionPin({ ...base, nearlySpent: ["openai:a"] });
    expect(result.pinnedProfileId).toBe("openai:b");
    expect(result.headroomMove).toBeUndefined();
  });
});
