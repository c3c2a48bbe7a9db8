import { afterEach, describe, expect, it } from "vitest";
import { grant, startTokenServer, type TokenHandler, type TokenServer } from "../../test/oauth/token-server.js";
import { DEFAULT_COOLDOWNS } from "../config/defaults.js";
import { FailoverError } from "../core/errors.js";
import type { OAuthCredential } from "../core/types.js";
import type { LogLevel } from "../ports/events.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { needsRefresh, OAUTH_REFRESH_WINDOW_MS, OAuthRefresher, oauthRefreshLeaseKey } from "./oauth-refresh.js";

const PROFILE = "anthropic:me@example.com";
const MINUTE = 60_000;

let server: TokenServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function oauthCredential(clock: FakeClock, overrides: Partial<OAuthCredential> = {}): OAuthCredential {
  return {
    type: "oauth",
    provider: "anthropic",
    access: "at-old",
    refresh: "rt-old",
    expires: clock.now() + 4 * MINUTE,
    email: "me@example.com",
    ...overrides,
  };
}

async function setup(handler: TokenHandler, credential?: (clock: FakeClock) => OAuthCredential) {
  server = await startTokenServer(handler);
  const clock = new FakeClock();
  const store = new MemoryStateStore();
  const stored = credential ? credential(clock) : oauthCredential(clock);
  await store.upsertProfile({ id: PROFILE, credential: stored });
  const logs: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  const tokenUrl = server.url;
  const refresher = (target = store) =>
    new OAuthRefresher({
      store: target,
      clock,
      endpointFor: (provider) => (provider === "anthropic" ? { tokenUrl, clientId: "client-1" } : undefined),
      logger: { log: (level, message, fields) => logs.push({ level, message, ...(fields ? { fields } : {}) }) },
      refreshTimeoutMs: 1_000,
      pollIntervalMs: 250,
    });
  return { server, clock, store, stored, logs, refresher };
}

async function storedCredential(store: MemoryStateStore): Promise<OAuthCredential | undefined> {
  const profile = await store.getProfile(PROFILE);
  return profile?.credential.type === "oauth" ? profile.credential : undefined;
}

describe("needsRefresh", () => {
  const now = 1_000_000_000;
  const rows: { name: string; credential: OAuthCredential; expected: boolean }[] = [
    { name: "expires in 4 minutes", credential: { type: "oauth", provider: "p", access: "a", expires: now + 4 * MINUTE }, expected: true },
    {
      name: "expires in exactly 5 minutes",
      credential: { type: "oauth", provider: "p", access: "a", expires: now + OAUTH_REFRESH_WINDOW_MS },
      expected: true,
    },
    {
      name: "expires in 5 minutes and 1 ms",
      credential: { type: "oauth", provider: "p", access: "a", expires: now + OAUTH_REFRESH_WINDOW_MS + 1 },
      expected: false,
    },
    { name: "already expired", credential: { type: "oauth", provider: "p", access: "a", expires: now - 1 }, expected: true },
    { name: "no expiry stated", credential: { type: "oauth", provider: "p", access: "a" }, expected: false },
    { name: "no access token yet", credential: { type: "oauth", provider: "p", refresh: "r" }, expected: true },
  ];
  it.each(rows)("R-AP-5: $name → $expected", ({ credential, expected }) => {
    expect(needsRefresh(credential, now)).toBe(expected);
  });
});

describe("OAuthRefresher", () => {
  it("R-AP-5: refreshes a credential within 5 minutes of expiry and writes the new tokens back to the store", async () => {
    const { server, clock, store, stored, refresher } = await setup(() => grant("at-new", { refresh: "rt-new", expiresIn: 3600 }));
    const fresh = await refresher().ensureFresh(PROFILE, stored);
    const expected = { ...stored, access: "at-new", refresh: "rt-new", expires: clock.now() + 3_600_000 };
    expect(fresh).toEqual(expected);
    expect(await storedCredential(store)).toEqual(expected);
    expect(server.requests).toEqual([{ grantType: "refresh_token", refreshToken: "rt-old", clientId: "client-1" }]);
  });

  it("R-AP-5: leaves a credential far from expiry alone", async () => {
    const { server, stored, refresher } = await setup(
      () => grant("at-new"),
      (clock) => oauthCredential(clock, { expires: clock.now() + 10 * MINUTE }),
    );
    expect(await refresher().ensureFresh(PROFILE, stored)).toBe(stored);
    expect(server.requests).toHaveLength(0);
  });

  it("R-AP-5: keeps the old refresh token when the endpoint does not rotate it, and drops an expiry it no longer states", async () => {
    const { store, stored, refresher } = await setup(() => ({ status: 200, body: { access_token: "at-new", token_type: "bearer" } }));
    await refresher().ensureFresh(PROFILE, stored);
    const after = await storedCredential(store);
    expect(after).toMatchObject({ access: "at-new", refresh: "rt-old" });
    expect(after?.expires).toBeUndefined();
  });

  it("R-AP-5: without a refresh token the access token is used as stored; with neither it fails as auth_permanent", async () => {
    const { server, clock, refresher } = await setup(() => grant("at-new"));
    const accessOnly = oauthCredential(clock, { refresh: undefined });
    expect(await refresher().ensureFresh(PROFILE, accessOnly)).toBe(accessOnly);
    await expect(refresher().ensureFresh(PROFILE, { type: "oauth", provider: "anthropic" })).rejects.toMatchObject({
      reason: "auth_permanent",
      upstreamCode: "oauth_no_tokens",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("R-AP-5: a provider without a token endpoint is used as stored, with one warning that names the config key", async () => {
    const { server, clock, logs, refresher } = await setup(() => grant("at-new"));
    const openai = oauthCredential(clock, { provider: "acme" });
    const instance = refresher();
    expect(await instance.ensureFresh(PROFILE, openai)).toBe(openai);
    expect(await instance.ensureFresh(PROFILE, openai)).toBe(openai);
    expect(logs.filter((entry) => entry.level === "warn")).toHaveLength(1);
    expect(logs[0]?.message).toContain("models.providers.acme.oauth");
    expect(server.requests).toHaveLength(0);
  });

  it("R-AP-5 / R-OB-2: the refresh log line names the profile, never a token", async () => {
    const { stored, logs, refresher } = await setup(() => grant("at-new", { refresh: "rt-new" }));
    await refresher().ensureFresh(PROFILE, stored);
    expect(logs).toHaveLength(1);
    const text = JSON.stringify(logs);
    expect(text).toContain(PROFILE);
    for (const secret of ["at-old", "rt-old", "at-new", "rt-new"]) expect(text).not.toContain(secret);
  });

  it("R-AP-5: concurrent callers in one process share one refresh", async () => {
    const { server, stored, refresher } = await setup(() => grant("at-new", { delayMs: 50 }));
    const instance = refresher();
    const results = await Promise.all(Array.from({ length: 10 }, () => instance.ensureFresh(PROFILE, stored)));
    expect(new Set(results.map((credential) => credential.access))).toEqual(new Set(["at-new"]));
    expect(server.requests).toHaveLength(1);
  });

  it("R-AP-5: a caller that aborts stops waiting; the shared refresh still serves the others", async () => {
    const { server, stored, refresher } = await setup(() => grant("at-new", { delayMs: 50 }));
    const instance = refresher();
    const controller = new AbortController();
    const aborted = instance.ensureFresh(PROFILE, stored, controller.signal);
    const patient = instance.ensureFresh(PROFILE, stored);
    controller.abort(new Error("caller gave up"));
    await expect(aborted).rejects.toThrow("caller gave up");
    expect((await patient).access).toBe("at-new");
    expect(server.requests).toHaveLength(1);
  });

  it("R-AP-5: two engines sharing one store refresh once — the second waits on the lease and reads the result", async () => {
    const { server, clock, store, stored, refresher } = await setup(() => grant("at-new", { refresh: "rt-new", delayMs: 50 }));
    const first = refresher().ensureFresh(PROFILE, stored);
    const second = refresher().ensureFresh(PROFILE, stored);
    expect((await first).access).toBe("at-new");
    await clock.advanceAsync(250);
    expect(await second).toEqual(await storedCredential(store));
    expect((await second).refresh).toBe("rt-new");
    expect(server.requests).toHaveLength(1);
  });

  it("R-AP-5: a lease left by a vanished process is taken over once it runs out", async () => {
    const { server, clock, store, stored, refresher } = await setup(() => grant("at-new"));
    const instance = refresher();
    await store.tryClaimProbe(oauthRefreshLeaseKey(PROFILE), clock.now(), instance.leaseMs);
    const pending = instance.ensureFresh(PROFILE, stored);
    await clock.advanceAsync(instance.leaseMs - 1);
    expect(server.requests).toHaveLength(0);
    await clock.advanceAsync(1);
    expect((await pending).access).toBe("at-new");
    expect(server.requests).toHaveLength(1);
  });

  it("R-AP-5: a waiter stops with auth_permanent when the lease holder's refresh was rejected", async () => {
    const { server, clock, store, stored, refresher } = await setup(() => grant("at-new"));
    const instance = refresher();
    await store.tryClaimProbe(oauthRefreshLeaseKey(PROFILE), clock.now(), instance.leaseMs);
    const outcome = instance.ensureFresh(PROFILE, stored).then(
      () => undefined,
      (error: unknown) => error,
    );
    await clock.advanceAsync(250);
    await store.recordFailure(PROFILE, { reason: "auth_permanent", provider: "anthropic", now: clock.now(), cooldowns: DEFAULT_COOLDOWNS });
    await clock.advanceAsync(250);
    const error = await outcome;
    expect(error).toBeInstanceOf(FailoverError);
    expect(error).toMatchObject({ reason: "auth_permanent", upstreamCode: "oauth_refresh_rejected_elsewhere" });
    expect(server.requests).toHaveLength(0);
  });

  it("R-AP-5: a waiter gives up with timeout when another process keeps the lease forever", async () => {
    const { server, clock, store, stored, refresher } = await setup(() => grant("at-new"));
    class StuckLeaseStore extends MemoryStateStore {
      override async tryClaimProbe(): Promise<boolean> {
        return false;
      }
    }
    const stuck = new StuckLeaseStore();
    await stuck.upsertProfile({ id: PROFILE, credential: stored });
    const instance = refresher(stuck);
    const outcome = instance.ensureFresh(PROFILE, stored).then(
      () => undefined,
      (error: unknown) => error,
    );
    await clock.advanceAsync(2 * instance.leaseMs + 250);
    expect(await outcome).toMatchObject({ reason: "timeout", upstreamCode: "oauth_refresh_lease_wait" });
    expect(server.requests).toHaveLength(0);
    expect(await storedCredential(store)).toEqual(stored);
  });

  it("R-AP-5: a profile removed while waiting fails the attempt instead of recreating it", async () => {
    const { clock, store, stored, refresher } = await setup(() => grant("at-new"));
    const instance = refresher();
    await store.tryClaimProbe(oauthRefreshLeaseKey(PROFILE), clock.now(), instance.leaseMs);
    const outcome = instance.ensureFresh(PROFILE, stored).then(
      () => undefined,
      (error: unknown) => error,
    );
    await store.removeProfile(PROFILE);
    await clock.advanceAsync(250);
    expect(await outcome).toMatchObject({ reason: "auth", upstreamCode: "oauth_profile_removed" });
    expect(await store.getProfile(PROFILE)).toBeUndefined();
  });
});
