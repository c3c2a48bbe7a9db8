import { describe, expect, it } from "vitest";
import { resolveSessionPin, type ResolveSessionPinInput } from "./session-pin.js";

const providers = {
  "openai:a": "openai",
  "openai:b": "openai",
  "openai:c": "openai",
  "anthropic:x": "anthropic",
};

function resolve(session: ResolveSessionPinInput["session"], overrides: Partial<ResolveSessionPinInput> = {}) {
  return resolveSessionPin({
    session,
    provider: "openai",
    ordered: ["openai:a", "openai:b", "openai:c"],
    usable: ["openai:a", "openai:b", "openai:c"],
    profileProviders: providers,
    ...overrides,
  });
}

const autoPin = (id: string, count = 0) => ({
  authProfileOverride: id,
  authProfileOverrideSource: "auto" as const,
  authProfileOverrideCompactionCount: count,
});

describe("R-PO-5 auto pin", () => {
  it("R-PO-5: a session without a pin is auto-pinned to the first usable profile on its first run", () => {
    const result = resolve({ compactionCount: 2 }, { ordered: ["openai:b", "openai:a"], usable: ["openai:a"] });
    expect(result).toEqual({ pinnedProfileId: "openai:a", strict: false, write: autoPin("openai:a", 2) });
  });

  it("R-PO-5: no session at all is pinned with compaction count 0", () => {
    expect(resolve(undefined).write).toEqual(autoPin("openai:a", 0));
  });

  it("R-PO-5: with nothing usable no pin is written", () => {
    expect(resolve({}, { usable: [] })).toEqual({ strict: false });
  });

  it("R-PO-5: an auto pin is reused while usable and compaction has not grown", () => {
    const result = resolve({ ...autoPin("openai:b", 3), compactionCount: 3 });
    expect(result).toEqual({ pinnedProfileId: "openai:b", strict: false });
  });

  it("R-PO-5: compaction growing past the stored count moves the pin to the next profile", () => {
    const result = resolve({ ...autoPin("openai:b", 3), compactionCount: 4 });
    expect(result).toEqual({ pinnedProfileId: "openai:c", strict: false, write: autoPin("openai:c", 4) });
  });

  it("R-PO-5: an unusable pinned profile moves the pin to the next usable one after it", () => {
    const result = resolve(autoPin("openai:a"), {
      ordered: ["openai:b", "openai:c", "openai:a"],
      usable: ["openai:b", "openai:c"],
    });
    expect(result.pinnedProfileId).toBe("openai:b");
    expect(result.write).toEqual(autoPin("openai:b"));
  });

  it("R-PO-5: the search for the next profile wraps around and skips unusable ones", () => {
    const result = resolve(autoPin("openai:b"), {
      ordered: ["openai:a", "openai:b", "openai:c"],
      usable: ["openai:a"],
    });
    expect(result.pinnedProfileId).toBe("openai:a");
  });

  it("R-PO-5: after compaction a single usable profile is re-pinned with the new count", () => {
    const result = resolve({ ...autoPin("openai:a", 1), compactionCount: 2 }, { ordered: ["openai:a"], usable: ["openai:a"] });
    expect(result).toEqual({ pinnedProfileId: "openai:a", strict: false, write: autoPin("openai:a", 2) });
  });

  it("R-PO-5: an unusable pin with nothing usable is kept for a later run", () => {
    const result = resolve(autoPin("openai:a"), { usable: [] });
    expect(result).toEqual({ strict: false });
  });

  it("R-PO-5: a pin to a profile that no longer exists is dropped and replaced", () => {
    const result = resolve(autoPin("openai:gone"));
    expect(result.pinnedProfileId).toBe("openai:a");
    expect(result.write).toEqual(autoPin("openai:a"));
  });

  it("R-PO-5: a pin to another provider's profile is dropped", () => {
    const result = resolve({ authProfileOverride: "anthropic:x", authProfileOverrideSource: "user" });
    expect(result.strict).toBe(false);
    expect(result.pinnedProfileId).toBe("openai:a");
  });

  it("R-PO-5: a dropped pin with nothing usable to replace it is cleared", () => {
    expect(resolve(autoPin("openai:gone"), { usable: [] })).toEqual({ strict: false, write: "clear" });
  });

  it("R-PO-5: a legacy pin with a compaction count but no source is an auto pin", () => {
    const result = resolve(
      { authProfileOverride: "openai:a", authProfileOverrideCompactionCount: 0 },
      { ordered: ["openai:b", "openai:a"], usable: ["openai:b"] },
    );
    expect(result.strict).toBe(false);
    expect(result.pinnedProfileId).toBe("openai:b");
  });
});

describe("R-PO-6 user pin", () => {
  it("R-PO-6: a user pin is strict and used as is", () => {
    const result = resolve({ authProfileOverride: "openai:c", authProfileOverrideSource: "user" });
    expect(result).toEqual({ pinnedProfileId: "openai:c", strict: true });
  });

  it("R-PO-6: a user pin holds even while its profile is unusable, so the run moves to the next model instead", () => {
    const result = resolve(
      { authProfileOverride: "openai:a", authProfileOverrideSource: "user" },
      { ordered: ["openai:b", "openai:a"], usable: ["openai:b"] },
    );
    expect(result).toEqual({ pinnedProfileId: "openai:a", strict: true });
  });

  it("R-PO-6: a user pin survives compaction", () => {
    const result = resolve({
      authProfileOverride: "openai:b",
      authProfileOverrideSource: "user",
      authProfileOverrideCompactionCount: 0,
      compactionCount: 5,
    });
    expect(result).toEqual({ pinnedProfileId: "openai:b", strict: true });
  });

  it("R-PO-6: a legacy pin without source or count is treated as the user's choice", () => {
    expect(resolve({ authProfileOverride: "openai:b" })).toEqual({ pinnedProfileId: "openai:b", strict: true });
  });

  it("R-PO-6: an auto pin is only a preference: it is never strict", () => {
    expect(resolve(autoPin("openai:b")).strict).toBe(false);
  });
});

describe("R-PO-5 one pin per provider", () => {
  it("R-PO-5 a turn on another provider parks the current pin instead of replacing it", () => {
    const result = resolve(autoPin("anthropic:x", 1), { usable: ["openai:b", "openai:a"], ordered: ["openai:b", "openai:a"] });
    expect(result.pinnedProfileId).toBe("openai:b");
    expect(result.write).toEqual({
      ...autoPin("openai:b", 0),
      authProfilePinsByProvider: { anthropic: { profileId: "anthropic:x", source: "auto", compactionCount: 1 } },
    });
  });

  it("R-PO-5 the provider's parked pin comes back as the current one, the other provider's pin parked in turn", () => {
    const session = {
      ...autoPin("anthropic:x"),
      authProfilePinsByProvider: { openai: { profileId: "openai:c", source: "auto" as const, compactionCount: 0 } },
    };
    const result = resolve(session);
    expect(result).toMatchObject({ pinnedProfileId: "openai:c", strict: false });
    expect(result.write).toEqual({
      ...autoPin("openai:c"),
      authProfilePinsByProvider: { anthropic: { profileId: "anthropic:x", source: "auto", compactionCount: 0 } },
    });
  });

  it("R-PO-6 a parked user pin comes back strict", () => {
    const session = {
      ...autoPin("anthropic:x"),
      authProfilePinsByProvider: { openai: { profileId: "openai:b", source: "user" as const } },
    };
    const result = resolve(session);
    expect(result).toMatchObject({ pinnedProfileId: "openai:b", strict: true });
    expect(result.write).toMatchObject({ authProfileOverride: "openai:b", authProfileOverrideSource: "user" });
  });

  it("R-PO-5 a parked auto pin that became unusable moves on to the next usable profile after it", () => {
    const session = {
      ...autoPin("anthropic:x"),
      authProfilePinsByProvider: { openai: { profileId: "openai:a", source: "auto" as const, compactionCount: 0 } },
    };
    const result = resolve(session, { usable: ["openai:b", "openai:c"] });
    expect(result.pinnedProfileId).toBe("openai:b");
  });

  it("R-PO-5 with nothing usable on this provider the other provider's pin stays as it is", () => {
    expect(resolve(autoPin("anthropic:x"), { usable: [] })).toEqual({ strict: false });
  });

  it("R-PO-5 a session without parked pins (written before they existed) resolves as before", () => {
    expect(resolve(autoPin("openai:b"))).toEqual({ pinnedProfileId: "openai:b", strict: false });
  });
});
