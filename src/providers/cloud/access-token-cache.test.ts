import { describe, expect, it } from "vitest";
import { AccessTokenCache, type AccessToken } from "./access-token-cache.js";

function counted(tokens: (() => Promise<AccessToken>)[]) {
  let calls = 0;
  return {
    fetch: () => {
      const next = tokens[Math.min(calls, tokens.length - 1)]!;
      calls += 1;
      return next();
    },
    calls: () => calls,
  };
}

describe("AccessTokenCache", () => {
  it("R-AP-5: callers waiting at once share one fetch", async () => {
    let release: (token: AccessToken) => void = () => {};
    const source = counted([() => new Promise<AccessToken>((resolve) => (release = resolve))]);
    const cache = new AccessTokenCache({ fetch: source.fetch, now: () => 0 });
    const waiting = Promise.all([cache.token(), cache.token(), cache.token()]);
    release({ token: "t1", expiresAt: 3_600_000 });
    expect(await waiting).toEqual(["t1", "t1", "t1"]);
    expect(source.calls()).toBe(1);
  });

  it("R-AP-5: the token is kept until five minutes before it expires, then fetched again", async () => {
    let now = 0;
    const source = counted([async () => ({ token: "t1", expiresAt: 3_600_000 }), async () => ({ token: "t2", expiresAt: 7_200_000 })]);
    const cache = new AccessTokenCache({ fetch: source.fetch, now: () => now });
    expect(await cache.token()).toBe("t1");
    now = 3_600_000 - 5 * 60_000 - 1;
    expect(await cache.token()).toBe("t1");
    now += 1;
    expect(await cache.token()).toBe("t2");
    expect(source.calls()).toBe(2);
  });

  it("R-AP-5: a failed fetch is not kept: the next call tries again", async () => {
    const source = counted([async () => Promise.reject(new Error("token endpoint down")), async () => ({ token: "t2" })]);
    const cache = new AccessTokenCache({ fetch: source.fetch, now: () => 0 });
    await expect(cache.token()).rejects.toThrow("token endpoint down");
    expect(await cache.token()).toBe("t2");
  });

  it("a caller that gives up is rejected with its own abort, and the shared fetch still lands for the others", async () => {
    let release: (token: AccessToken) => void = () => {};
    const source = counted([() => new Promise<AccessToken>((resolve) => (release = resolve))]);
    const cache = new AccessTokenCache({ fetch: source.fetch, now: () => 0 });
    const controller = new AbortController();
    const impatient = cache.token(controller.signal);
    const patient = cache.token();
    controller.abort(new Error("client left"));
    await expect(impatient).rejects.toThrow("client left");
    release({ token: "t1", expiresAt: 3_600_000 });
    expect(await patient).toBe("t1");
  });

  it("invalidate drops the kept token", async () => {
    const source = counted([async () => ({ token: "t1", expiresAt: 3_600_000 }), async () => ({ token: "t2", expiresAt: 3_600_000 })]);
    const cache = new AccessTokenCache({ fetch: source.fetch, now: () => 0 });
    expect(await cache.token()).toBe("t1");
    cache.invalidate();
    expect(await cache.token()).toBe("t2");
  });

  it("a refusal of an older token keeps the newer one another call already fetched", async () => {
    const source = counted([async () => ({ token: "t1", expiresAt: 3_600_000 }), async () => ({ token: "t2", expiresAt: 3_600_000 })]);
    const cache = new AccessTokenCache({ fetch: source.fetch, now: () => 0 });
    expect(await cache.token()).toBe("t1");
    cache.invalidate("t1");
    expect(await cache.token()).toBe("t2");
    cache.invalidate("t1");
    expect(await cache.token()).toBe("t2");
    expect(source.calls()).toBe(2);
    cache.invalidate("t2");
    await cache.token();
    expect(source.calls()).toBe(3);
  });
});
