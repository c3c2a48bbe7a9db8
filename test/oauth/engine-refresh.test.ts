/**
 * R-AP-5 through the engine: `createDetour` refreshes an OAuth profile near expiry before the attempt, writes
 * the new tokens back, and turns a failed refresh into an attempt failure the runner records and rotates away
 * from. The token endpoint is a loopback server; time is a FakeClock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDetour, type Detour } from "../../src/engine/create-detour.js";
import type { OAuthCredential } from "../../src/core/types.js";
import type { AttemptContext } from "../../src/runner/attempt.js";
import { MemoryStateStore } from "../../src/state/memory/memory-store.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { grant, oauthError, startTokenServer, type TokenHandler, type TokenServer } from "./token-server.js";

const MINUTE = 60_000;
const A = "anthropic:a@example.com";
const B = "anthropic:b@example.com";

let server: TokenServer | undefined;
let detour: Detour | undefined;
afterEach(async () => {
  await detour?.close();
  await server?.close();
  detour = undefined;
  server = undefined;
});

function credential(clock: FakeClock, name: string, expiresInMs: number): OAuthCredential {
  return {
    type: "oauth",
    provider: "anthropic",
    access: `at-${name}-old`,
    refresh: `rt-${name}-old`,
    expires: clock.now() + expiresInMs,
    email: `${name}@example.com`,
  };
}

async function setup(handler: TokenHandler, profiles: { id: string; credential: (clock: FakeClock) => OAuthCredential }[]) {
  server = await startTokenServer(handler);
  const clock = new FakeClock();
  const store = new MemoryStateStore();
  for (const profile of profiles) await store.upsertProfile({ id: profile.id, credential: profile.credential(clock) });
  const logLines: string[] = [];
  detour = await createDetour({
    config: {
      agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6" }, modelFailover: { retrySameProfileOnTimeout: 0 } } },
      models: { providers: { anthropic: { oauth: { tokenUrl: server.url, clientId: "detour-test" } } } },
      auth: { order: { anthropic: profiles.map((profile) => profile.id) } },
    },
    store,
    clock,
    random: new SeededRandom(7),
    env: {},
    logger: { log: (level, message, fields) => logLines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`) },
  });
  const events: unknown[] = [];
  detour.on("*", (event) => void events.push(event));
  const seen: AttemptContext[] = [];
  const attempt = async (context: AttemptContext) => {
    seen.push(context);
    const used = context.credential;
    return used?.type === "oauth" ? used.access : undefined;
  };
  return { server, clock, store, detour, attempt, seen, logLines, events };
}

async function stored(store: MemoryStateStore, id: string): Promise<OAuthCredential | undefined> {
  const profile = await store.getProfile(id);
  return profile?.credential.type === "oauth" ? profile.credential : undefined;
}

describe("OAuth refresh in the engine", () => {
  it("R-AP-5: a profile within 5 minutes of expiry is refreshed before the attempt and the store gets the new tokens", async () => {
    const ctx = await setup(
      () => grant("at-a-new", { refresh: "rt-a-new", expiresIn: 3600 }),
      [{ id: A, credential: (clock) => credential(clock, "a", 4 * MINUTE) }],
    );
    const out = await ctx.detour.runWith({ attempt: ctx.attempt });
    expect(out).toMatchObject({ result: "at-a-new", profileId: A });
    expect(await stored(ctx.store, A)).toMatchObject({
      access: "at-a-new",
      refresh: "rt-a-new",
      expires: ctx.clock.now() + 3_600_000,
      email: "a@example.com",
    });
    expect(ctx.server.requests).toEqual([{ grantType: "refresh_token", refreshToken: "rt-a-old", clientId: "detour-test" }]);
  });

  it("R-AP-5: a profile far from expiry is used as stored, without a token request", async () => {
    const ctx = await setup(() => grant("unused"), [{ id: A, credential: (clock) => credential(clock, "a", 30 * MINUTE) }]);
    const out = await ctx.detour.runWith({ attempt: ctx.attempt });
    expect(out.result).toBe("at-a-old");
    expect(ctx.server.requests).toHaveLength(0);
  });

  it("R-AP-5: a rotated refresh token is persisted and used for the next refresh", async () => {
    const ctx = await setup(
      (_request, index) => grant(`at-a-${index + 1}`, { refresh: `rt-a-${index + 1}`, expiresIn: 600 }),
      [{ id: A, credential: (clock) => credential(clock, "a", 4 * MINUTE) }],
    );
    expect((await ctx.detour.runWith({ attempt: ctx.attempt })).result).toBe("at-a-1");
    // 600 s tokens: after 6 minutes the new one is within 5 minutes of its own expiry.
    ctx.clock.advance(6 * MINUTE);
    expect((await ctx.detour.runWith({ attempt: ctx.attempt })).result).toBe("at-a-2");
    expect(ctx.server.requests.map((request) => request.refreshToken)).toEqual(["rt-a-old", "rt-a-1"]);
    expect(await stored(ctx.store, A)).toMatchObject({ access: "at-a-2", refresh: "rt-a-2" });
  });

  it.each([
    { name: "400 invalid_grant", reply: oauthError(400, "invalid_grant", "Refresh token has been revoked") },
    { name: "401", reply: oauthError(401, "invalid_client") },
  ])("R-AP-5: a refresh rejected with $name is recorded as auth_permanent and the run rotates to the next profile", async ({ reply }) => {
    const ctx = await setup(
      () => reply,
      [
        { id: A, credential: (clock) => credential(clock, "a", 2 * MINUTE) },
        { id: B, credential: (clock) => credential(clock, "b", 60 * MINUTE) },
      ],
    );
    const out = await ctx.detour.runWith({ attempt: ctx.attempt });
    expect(out).toMatchObject({ result: "at-b-old", profileId: B });
    // The failed refresh never reached the attempt function.
    expect(ctx.seen.map((context) => context.profileId)).toEqual([B]);
    expect(await ctx.store.getUsageStats(A)).toMatchObject({
      disabledReason: "auth_permanent",
      disabledUntil: ctx.clock.now() + 10 * MINUTE,
      failureCounts: { auth_permanent: 1 },
    });
    expect(ctx.events).toContainEqual(
      expect.objectContaining({ type: "profile_rotated", fromProfileId: A, toProfileId: B, reason: "auth_permanent" }),
    );
    // The dead credential stays as it was; nothing half-written.
    expect(await stored(ctx.store, A)).toMatchObject({ access: "at-a-old", refresh: "rt-a-old" });
  });

  it("R-AP-5 / R-OB-2: no token reaches the logs or the events of a run with a rejected and a successful refresh", async () => {
    const ctx = await setup(
      (request) => (request.refreshToken === "rt-a-old" ? oauthError(400, "invalid_grant") : grant("at-b-new", { refresh: "rt-b-new" })),
      [
        { id: A, credential: (clock) => credential(clock, "a", 2 * MINUTE) },
        { id: B, credential: (clock) => credential(clock, "b", 2 * MINUTE) },
      ],
    );
    const out = await ctx.detour.runWith({ attempt: ctx.attempt });
    expect(out.result).toBe("at-b-new");
    const everything = `${ctx.logLines.join("\n")}\n${JSON.stringify(ctx.events)}\n${JSON.stringify(await ctx.detour.status())}`;
    expect(everything).toContain(A);
    for (const secret of ["at-a-old", "rt-a-old", "at-b-old", "rt-b-old", "at-b-new", "rt-b-new"]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("R-AP-5: a refresh that times out is recorded as timeout and the run rotates to the next profile", async () => {
    const ctx = await setup(
      () => ({ hang: true }),
      [
        { id: A, credential: (clock) => credential(clock, "a", 1 * MINUTE) },
        { id: B, credential: (clock) => credential(clock, "b", 60 * MINUTE) },
      ],
    );
    const run = ctx.detour.runWith({ attempt: ctx.attempt });
    await ctx.server.waitForRequests(1);
    await ctx.clock.advanceAsync(30_000);
    const out = await run;
    expect(out).toMatchObject({ result: "at-b-old", profileId: B });
    const stats = await ctx.store.getUsageStats(A);
    expect(stats).toMatchObject({ cooldownReason: "timeout", failureCounts: { timeout: 1 } });
    expect(stats?.disabledReason).toBeUndefined();
    expect(ctx.events).toContainEqual(
      expect.objectContaining({ type: "attempt_finished", profileId: A, outcome: "failed", reason: "timeout" }),
    );
  });

  it("R-AP-5: 10 concurrent runs in one process send exactly 1 token request", async () => {
    const ctx = await setup(
      () => grant("at-a-new", { delayMs: 100 }),
      [{ id: A, credential: (clock) => credential(clock, "a", 3 * MINUTE) }],
    );
    const outs = await Promise.all(Array.from({ length: 10 }, () => ctx.detour.runWith({ attempt: ctx.attempt })));
    expect(outs.map((out) => out.result)).toEqual(Array.from({ length: 10 }, () => "at-a-new"));
    expect(ctx.server.requests).toHaveLength(1);
  });

  it("R-AP-5: API keys and static tokens are never sent to the token endpoint", async () => {
    const ctx = await setup(() => grant("unused"), []);
    await ctx.store.upsertProfile({ id: "anthropic:key", credential: { type: "api_key", provider: "anthropic", key: "sk-x" } });
    await ctx.store.upsertProfile({
      id: "anthropic:token",
      credential: { type: "token", provider: "anthropic", token: "tok", expires: ctx.clock.now() + MINUTE },
    });
    const byKey = await ctx.detour.runWith({ attempt: async (context) => context.credential?.type });
    expect(byKey.result).toMatch(/^(api_key|token)$/);
    expect(ctx.server.requests).toHaveLength(0);
  });
});
