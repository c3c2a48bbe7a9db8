import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderProfiles, type OrderProfilesInput } from "./order-profiles.js";
import type { Credential, ProfileConfig, UsageStats } from "./types.js";

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const key = (provider: string, value = "sk-test"): Credential => ({ type: "api_key", provider, key: value });
const oauth = (provider: string, fields: { access?: string; refresh?: string } = { access: "at", refresh: "rt" }): Credential => ({
  type: "oauth",
  provider,
  ...fields,
  expires: T0 + HOUR,
});
const token = (provider: string, expires?: number): Credential =>
  expires === undefined ? { type: "token", provider, token: "tok" } : { type: "token", provider, token: "tok", expires };

function order(partial: Partial<OrderProfilesInput> & Pick<OrderProfilesInput, "profiles">) {
  return orderProfiles({ provider: "openai", now: T0, usageStats: {}, ...partial });
}

const cooling = (untilOffsetMs: number, extra: UsageStats = {}): UsageStats => ({
  cooldownUntil: T0 + untilOffsetMs,
  cooldownReason: "rate_limit",
  errorCount: 1,
  ...extra,
});

describe("R-PO-1 base list", () => {
  const profiles = [
    { id: "openai:a", credential: key("openai") },
    { id: "openai:b", credential: key("openai") },
    { id: "openai:c", credential: key("openai") },
    { id: "anthropic:x", credential: key("anthropic") },
  ];

  it("R-PO-1: the stored order wins over auth.order", () => {
    const result = order({ profiles, storedOrder: ["openai:c", "openai:a"], configuredOrder: ["openai:b"] });
    expect(result.ordered).toEqual(["openai:c", "openai:a"]);
    expect(result.explicit).toBe(true);
  });

  it("R-PO-1: auth.order wins over auth.profiles", () => {
    const configuredProfiles: Record<string, ProfileConfig> = { "openai:a": { provider: "openai", mode: "api_key" } };
    const result = order({ profiles, configuredOrder: ["openai:b", "openai:c"], configuredProfiles });
    expect(result.ordered).toEqual(["openai:b", "openai:c"]);
    expect(result.explicit).toBe(true);
  });

  it("R-PO-1: auth.profiles filtered by provider come next, and are not an explicit order", () => {
    const configuredProfiles: Record<string, ProfileConfig> = {
      "openai:b": { provider: "openai", mode: "api_key" },
      "anthropic:x": { provider: "anthropic", mode: "api_key" },
    };
    const result = order({ profiles, configuredProfiles });
    expect(result.ordered).toEqual(["openai:b"]);
    expect(result.explicit).toBe(false);
  });

  it("R-PO-1: without any list, every stored profile of the provider is used", () => {
    const result = order({ profiles });
    expect([...result.ordered].sort()).toEqual(["openai:a", "openai:b", "openai:c"]);
    expect(result.explicit).toBe(false);
  });

  it("R-PO-1: an empty stored order counts as absent", () => {
    expect(order({ profiles, storedOrder: [], configuredOrder: ["openai:b"] }).ordered).toEqual(["openai:b"]);
  });

  it("R-PO-1: profiles configured only for another provider fall back to the stored profiles", () => {
    const configuredProfiles: Record<string, ProfileConfig> = { "anthropic:x": { provider: "anthropic", mode: "api_key" } };
    expect(order({ profiles, configuredProfiles }).ordered).toHaveLength(3);
  });

  it("R-PO-1: duplicates are dropped silently, first position wins", () => {
    const result = order({ profiles, storedOrder: ["openai:b", "openai:a", "openai:b"] });
    expect(result.ordered).toEqual(["openai:b", "openai:a"]);
    expect(result.dropped).toEqual([]);
  });

  const dropRows: {
    name: string;
    credential?: Credential;
    config?: ProfileConfig;
    why?: RegExp;
  }[] = [
    { name: "missing credential", why: /missing credential/ },
    { name: "credential of another provider", credential: key("anthropic"), why: /provider mismatch/ },
    {
      name: "configured for another provider",
      credential: key("openai"),
      config: { provider: "anthropic", mode: "api_key" },
      why: /provider mismatch/,
    },
    {
      name: "api_key mode with an oauth credential",
      credential: oauth("openai"),
      config: { provider: "openai", mode: "api_key" },
      why: /mode api_key/,
    },
    {
      name: "token mode with an api key",
      credential: key("openai"),
      config: { provider: "openai", mode: "token" },
      why: /mode token/,
    },
    { name: "oauth mode accepts a token credential", credential: token("openai"), config: { provider: "openai", mode: "oauth" } },
    { name: "oauth mode with an oauth credential", credential: oauth("openai"), config: { provider: "openai", mode: "oauth" } },
    { name: "empty key", credential: key("openai", ""), why: /empty key/ },
    { name: "blank key", credential: key("openai", "   "), why: /empty key/ },
    { name: "empty token", credential: { type: "token", provider: "openai", token: "" }, why: /empty token/ },
    { name: "token expired in the past", credential: token("openai", T0 - 1), why: /expired token/ },
    { name: "token expiring exactly now", credential: token("openai", T0), why: /expired token/ },
    { name: "token expiring later", credential: token("openai", T0 + 1) },
    { name: "token without expiry", credential: token("openai") },
    { name: "oauth with neither access nor refresh", credential: oauth("openai", {}), why: /neither an access nor a refresh/ },
    { name: "oauth with blank access and refresh", credential: oauth("openai", { access: "", refresh: " " }), why: /neither/ },
    { name: "oauth with only a refresh token", credential: oauth("openai", { refresh: "rt" }) },
    { name: "oauth with only an access token", credential: oauth("openai", { access: "at" }) },
  ];

  it.each(dropRows)("R-PO-1: $name", ({ credential, config, why }) => {
    const result = order({
      profiles: credential ? [{ id: "openai:p", credential }] : [{ id: "openai:p" }],
      storedOrder: ["openai:p"],
      ...(config ? { configuredProfiles: { "openai:p": config } } : {}),
    });
    if (why) {
      expect(result.ordered).toEqual([]);
      expect(result.dropped).toHaveLength(1);
      expect(result.dropped[0]?.id).toBe("openai:p");
      expect(result.dropped[0]?.why).toMatch(why);
    } else {
      expect(result.ordered).toEqual(["openai:p"]);
      expect(result.dropped).toEqual([]);
    }
  });

  it("R-PO-1: a drop message never contains the secret", () => {
    const result = order({ profiles: [{ id: "openai:p", credential: key("anthropic", "sk-secret-123") }], storedOrder: ["openai:p"] });
    expect(JSON.stringify(result)).not.toContain("sk-secret-123");
  });
});

describe("R-PO-2 explicit order", () => {
  const profiles = [
    { id: "openai:key", credential: key("openai") },
    { id: "openai:sub", credential: oauth("openai") },
    { id: "openai:tok", credential: token("openai") },
  ];

  it("R-PO-2: an explicit order is kept as given, even against type preference", () => {
    const result = order({
      profiles,
      storedOrder: ["openai:key", "openai:tok", "openai:sub"],
      usageStats: { "openai:key": { lastUsed: T0 } },
    });
    expect(result.ordered).toEqual(["openai:key", "openai:tok", "openai:sub"]);
  });

  it("R-PO-2: unusable profiles move to the end, soonest expiry first", () => {
    const result = order({
      profiles,
      configuredOrder: ["openai:key", "openai:sub", "openai:tok"],
      usageStats: {
        "openai:key": cooling(5 * MINUTE),
        "openai:sub": { disabledUntil: T0 + HOUR, disabledReason: "billing" },
      },
    });
    expect(result.ordered).toEqual(["openai:tok", "openai:key", "openai:sub"]);
    expect(result.usable).toEqual(["openai:tok"]);
    expect(result.unusable).toEqual(["openai:key", "openai:sub"]);
  });

  it("R-PO-2: a provider-stated block makes a profile unusable", () => {
    const result = order({
      profiles,
      storedOrder: ["openai:key", "openai:sub"],
      usageStats: { "openai:key": { blockedUntil: T0 + HOUR, blockedReason: "rate_limit" } },
    });
    expect(result.ordered).toEqual(["openai:sub", "openai:key"]);
  });

  it("R-PO-2: a cooldown scoped to another model keeps the profile in place", () => {
    const result = order({
      profiles,
      model: "gpt-5-mini",
      storedOrder: ["openai:key", "openai:sub"],
      usageStats: { "openai:key": cooling(5 * MINUTE, { cooldownModel: "gpt-5" }) },
    });
    expect(result.ordered).toEqual(["openai:key", "openai:sub"]);
    expect(result.unusable).toEqual([]);
  });

  it("R-PO-2: a cooldown scoped to this model moves the profile to the end", () => {
    const result = order({
      profiles,
      model: "gpt-5",
      storedOrder: ["openai:key", "openai:sub"],
      usageStats: { "openai:key": cooling(5 * MINUTE, { cooldownModel: "gpt-5" }) },
    });
    expect(result.ordered).toEqual(["openai:sub", "openai:key"]);
  });
});

describe("R-PO-3 round robin", () => {
  it("R-PO-3: oauth before token before api_key", () => {
    const result = order({
      profiles: [
        { id: "openai:key", credential: key("openai") },
        { id: "openai:tok", credential: token("openai") },
        { id: "openai:sub", credential: oauth("openai") },
      ],
    });
    expect(result.ordered).toEqual(["openai:sub", "openai:tok", "openai:key"]);
    expect(result.explicit).toBe(false);
  });

  it("R-PO-3: within a type, least recently used first and never used before all", () => {
    const result = order({
      profiles: [
        { id: "openai:k1", credential: key("openai") },
        { id: "openai:k2", credential: key("openai") },
        { id: "openai:k3", credential: key("openai") },
        { id: "openai:k4", credential: key("openai") },
      ],
      usageStats: {
        "openai:k1": { lastUsed: T0 - MINUTE },
        "openai:k2": { lastUsed: T0 - HOUR },
        "openai:k4": { lastUsed: T0 - 2 * MINUTE },
      },
    });
    expect(result.ordered).toEqual(["openai:k3", "openai:k2", "openai:k4", "openai:k1"]);
  });

  it("R-PO-3: type beats recency", () => {
    const result = order({
      profiles: [
        { id: "openai:key", credential: key("openai") },
        { id: "openai:sub", credential: oauth("openai") },
      ],
      usageStats: { "openai:sub": { lastUsed: T0 - MINUTE } },
    });
    expect(result.ordered).toEqual(["openai:sub", "openai:key"]);
  });

  it("R-PO-3: unusable profiles come after the usable ones, soonest expiry first", () => {
    const result = order({
      profiles: [
        { id: "openai:sub", credential: oauth("openai") },
        { id: "openai:tok", credential: token("openai") },
        { id: "openai:key", credential: key("openai") },
      ],
      usageStats: {
        "openai:sub": cooling(10 * MINUTE),
        "openai:tok": cooling(2 * MINUTE),
      },
    });
    expect(result.ordered).toEqual(["openai:key", "openai:tok", "openai:sub"]);
    expect(result.unusable).toEqual(["openai:tok", "openai:sub"]);
  });
});

describe("R-PO-4 clearing while ordering", () => {
  it("R-PO-4: expired windows are cleared, returned in clearedStats, and the profile is usable again", () => {
    const expired: UsageStats = {
      cooldownUntil: T0 - 1,
      cooldownReason: "rate_limit",
      cooldownModel: "gpt-5",
      errorCount: 2,
      failureCounts: { rate_limit: 2 },
      lastFailureAt: T0 - MINUTE,
    };
    const active = cooling(MINUTE);
    const result = order({
      profiles: [
        { id: "openai:a", credential: key("openai") },
        { id: "openai:b", credential: key("openai") },
        { id: "openai:c", credential: key("openai") },
      ],
      storedOrder: ["openai:a", "openai:b", "openai:c"],
      usageStats: { "openai:a": expired, "openai:b": active, "openai:c": { lastUsed: T0 - HOUR } },
    });
    expect(result.ordered).toEqual(["openai:a", "openai:c", "openai:b"]);
    expect(result.clearedStats).toEqual({
      "openai:a": { errorCount: 2, failureCounts: { rate_limit: 2 }, lastFailureAt: T0 - MINUTE },
    });
    // The input is untouched.
    expect(expired.cooldownUntil).toBe(T0 - 1);
  });
});

describe("property", () => {
  const ids = ["openai:a", "openai:b", "openai:c", "openai:d", "anthropic:e", "openai:f"];
  const credentialArb: fc.Arbitrary<Credential | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.record({ type: fc.constant("api_key" as const), provider: fc.constantFrom("openai", "anthropic"), key: fc.constantFrom("", "k") }),
    fc.record({
      type: fc.constant("token" as const),
      provider: fc.constantFrom("openai", "anthropic"),
      token: fc.constantFrom("", "t"),
      expires: fc.integer({ min: T0 - HOUR, max: T0 + HOUR }),
    }),
    fc.record({
      type: fc.constant("oauth" as const),
      provider: fc.constant("openai"),
      access: fc.option(fc.constantFrom("", "a"), { nil: undefined }),
      refresh: fc.option(fc.constantFrom("", "r"), { nil: undefined }),
    }),
  );
  const statsArb: fc.Arbitrary<UsageStats | undefined> = fc.option(
    fc.record(
      {
        lastUsed: fc.integer({ min: T0 - HOUR, max: T0 }),
        cooldownUntil: fc.integer({ min: T0 - HOUR, max: T0 + HOUR }),
        cooldownModel: fc.constantFrom("m1", "m2"),
        disabledUntil: fc.integer({ min: T0 - HOUR, max: T0 + HOUR }),
        blockedUntil: fc.integer({ min: T0 - HOUR, max: T0 + HOUR }),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  );
  const listArb = fc.option(fc.array(fc.constantFrom(...ids), { maxLength: 8 }), { nil: undefined });

  it("R-PO-3: ordered is a permutation of the non-dropped input and usable keeps its order", () => {
    fc.assert(
      fc.property(
        fc.array(credentialArb, { minLength: ids.length, maxLength: ids.length }),
        fc.array(statsArb, { minLength: ids.length, maxLength: ids.length }),
        listArb,
        listArb,
        fc.option(fc.constantFrom("m1", "m2"), { nil: undefined }),
        (credentials, stats, storedOrder, configuredOrder, model) => {
          const profiles = ids.map((id, i) => (credentials[i] ? { id, credential: credentials[i] } : { id }));
          const usageStats = Object.fromEntries(ids.map((id, i) => [id, stats[i]]));
          const result = orderProfiles({
            provider: "openai",
            now: T0,
            profiles,
            usageStats,
            ...(model ? { model } : {}),
            ...(storedOrder ? { storedOrder } : {}),
            ...(configuredOrder ? { configuredOrder } : {}),
          });
          const explicitList = storedOrder?.length ? storedOrder : configuredOrder?.length ? configuredOrder : undefined;
          const base = explicitList ?? profiles.filter((p) => p.credential?.provider === "openai").map((p) => p.id);
          const droppedIds = new Set(result.dropped.map((d) => d.id));
          const expected = [...new Set(base)].filter((id) => !droppedIds.has(id));

          expect([...result.ordered].sort()).toEqual([...expected].sort());
          expect(new Set(result.ordered).size).toBe(result.ordered.length);
          expect(result.ordered).toEqual([...result.usable, ...result.unusable]);
          const positions = result.usable.map((id) => result.ordered.indexOf(id));
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
          if (explicitList) {
            const inputOrder = expected.filter((id) => result.usable.includes(id));
            expect(result.usable).toEqual(inputOrder);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
