/**
 * R-PO-7 end to end: Detour over a pool of budgeted mock keys, with one controllable clock for the mock and
 * the engine so a minute of traffic runs in well under a second. 429s are counted at the mock.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { createDetour, type Detour } from "../../src/engine/create-detour.js";
import type { DetourEvent } from "../../src/ports/events.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { fingerprintKey, startMockProvider, type MockBudgetsInput, type MockProvider } from "../../src/testing/mock-provider/index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HELLO = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hello" }] }] };

interface Pool {
  mock: MockProvider;
  detour: Detour;
  clock: FakeClock;
  events: DetourEvent[];
}

async function startPool(options: {
  api: "openai" | "anthropic";
  keys: Record<string, string>;
  budgets: MockBudgetsInput;
  strategy?: "spread" | "drain-soonest-reset";
}): Promise<Pool> {
  const clock = new FakeClock();
  const mock = await startMockProvider({ clock, budgets: options.budgets, recordLimit: 500 });
  cleanups.push(() => mock.close());
  const provider = options.api;
  const profiles = Object.fromEntries(
    Object.keys(options.keys).map((id) => [
      `${provider}:${id}`,
      { provider, mode: "api_key" as const, keyRef: { env: `POOL_${id.toUpperCase().replace(/-/g, "_")}` } },
    ]),
  );
  const env = Object.fromEntries(Object.entries(options.keys).map(([id, key]) => [`POOL_${id.toUpperCase().replace(/-/g, "_")}`, key]));
  const config: DetourConfigInput = {
    models: {
      providers: {
        [provider]: {
          api: provider === "openai" ? "openai-chat" : "anthropic-messages",
          baseUrl: provider === "openai" ? `${mock.url}/v1` : mock.url,
          timeoutSeconds: 5,
        },
      },
    },
    auth: { profiles, headroom: { strategy: options.strategy ?? "spread" } },
    agents: {
      defaults: {
        model: { primary: `${provider}/${provider === "openai" ? "mock-gpt" : "mock-claude"}`, fallbacks: [] },
        modelFailover: { retrySameProfileOnTimeout: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
      },
    },
    state: { backend: "memory" },
  };
  const detour = await createDetour({ config, clock, env });
  cleanups.push(() => detour.close());
  const events: DetourEvent[] = [];
  detour.on("*", (event) => void events.push(event));
  return { mock, detour, clock, events };
}

const rejectedAtMock = (mock: MockProvider): number => Object.values(mock.budgets()).reduce((sum, state) => sum + state.rejected, 0);

/** 4 sticky sessions sending 55 requests between them in 60 s over keys of 5, 20 and 40 requests per 60 s. */
async function driveSessions(pool: Pool): Promise<{ failedRuns: number }> {
  let failedRuns = 0;
  for (let index = 0; index < 55; index += 1) {
    pool.clock.advance(1000);
    try {
      await pool.detour.run({ sessionKey: `session-${index % 4}`, request: HELLO });
    } catch {
      failedRuns += 1;
    }
  }
  return { failedRuns };
}

const KEYS = { small: "sk-pool-small-5", medium: "sk-pool-medium-20", large: "sk-pool-large-40" };
const budgets = (headers?: "none"): MockBudgetsInput => ({
  [KEYS.small]: { requests: 5, windowSeconds: 60, ...(headers ? { headers } : {}) },
  [KEYS.medium]: { requests: 20, windowSeconds: 60, ...(headers ? { headers } : {}) },
  [KEYS.large]: { requests: 40, windowSeconds: 60, ...(headers ? { headers } : {}) },
});

describe("R-PO-7: a key pool of unequal budgets", () => {
  it("R-PO-7: with headroom the mock sees 0 upstream 429s; plain round robin (no readings) gets some", async () => {
    const steered = await startPool({ api: "openai", keys: KEYS, budgets: budgets() });
    const steeredRun = await driveSessions(steered);
    expect(rejectedAtMock(steered.mock)).toBe(0);
    expect(steeredRun.failedRuns).toBe(0);
    expect(steered.mock.counts().total).toBe(55);
    const passedOver = steered.events.filter((event) => event.type === "headroom_passed_over");
    expect(passedOver.length).toBeGreaterThan(0);
    expect(passedOver.every((event) => event.profileId !== event.toProfileId)).toBe(true);

    // The same traffic when the provider states no headroom: Detour can only react to the 429s.
    const blind = await startPool({ api: "openai", keys: KEYS, budgets: budgets("none") });
    await driveSessions(blind);
    expect(rejectedAtMock(blind.mock)).toBeGreaterThan(0);
    expect(blind.mock.counts().total).toBeGreaterThan(55);
  });
});

describe("R-PO-7: drain-soonest-reset over subscription windows", () => {
  // 5-hour windows of 10 requests; they began 1 h, 4 h and 2 h before the test, so they reset in 4 h, 1 h, 3 h.
  const ACCOUNTS = { "acct-1": "sk-ant-acct-1", "acct-2": "sk-ant-acct-2", "acct-3": "sk-ant-acct-3" };
  const started = { "acct-1": 3600, "acct-2": 4 * 3600, "acct-3": 2 * 3600 };
  const accountBudgets: MockBudgetsInput = Object.fromEntries(
    Object.entries(ACCOUNTS).map(([id, key]) => [
      key,
      { fiveHourRequests: 10, sevenDayRequests: 1000, windowStartedSecondsAgo: started[id as keyof typeof started] },
    ]),
  );

  it("R-PO-7: the account whose window resets first is spent first, and no session moves onto a nearly spent one", async () => {
    const pool = await startPool({ api: "anthropic", keys: ACCOUNTS, budgets: accountBudgets, strategy: "drain-soonest-reset" });
    // Three runs without a session learn each account's window (an account without a reading goes first).
    for (let index = 0; index < 3; index += 1) {
      pool.clock.advance(1000);
      await pool.detour.run({ request: HELLO });
    }
    for (let index = 0; index < 20; index += 1) {
      pool.clock.advance(1000);
      await pool.detour.run({ sessionKey: `session-${index % 4}`, request: HELLO });
    }
    expect(rejectedAtMock(pool.mock)).toBe(0);

    const keyToAccount = new Map(Object.entries(ACCOUNTS).map(([id, key]) => [key, id]));
    const fingerprints = new Map(pool.mock.requests().map((request) => [request.sequence, request.keyFingerprint] as const));
    // Which account answered each request, in order (the mock records fingerprints, never keys).
    const byFingerprint = new Map<string, string>();
    for (const key of keyToAccount.keys()) byFingerprint.set(fingerprintKey(key), keyToAccount.get(key) as string);
    const answeredBy = [...fingerprints.values()].map((fingerprint) => byFingerprint.get(fingerprint));
    const sessionRequests = answeredBy.slice(3);

    // acct-2 resets first: every session request goes there until it is nearly spent (9 of 10 used).
    const firstElsewhere = sessionRequests.findIndex((account) => account !== "acct-2");
    expect(firstElsewhere).toBe(8);
    // Then the next soonest (acct-3), and only then acct-1.
    expect(sessionRequests.slice(8, 16).every((account) => account === "acct-3")).toBe(true);
    expect(sessionRequests.slice(16).every((account) => account === "acct-1")).toBe(true);

    // Never above the threshold: before each request, the account answering it was below 90 % (the
    // utilisation at which the window's status turns to allowed_warning, i.e. nearly spent).
    const used: Record<string, number> = {};
    for (const account of answeredBy) {
      expect(used[account as string] ?? 0).toBeLessThan(9);
      used[account as string] = (used[account as string] ?? 0) + 1;
    }

    const moves = pool.events.filter(
      (event): event is Extract<DetourEvent, { type: "headroom_passed_over" }> => event.type === "headroom_passed_over" && event.pinMoved,
    );
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.every((event) => event.why === "window_status" || event.why === "below_min_remaining")).toBe(true);
    expect(new Set(moves.map((event) => `${event.profileId}→${event.toProfileId}`))).toEqual(
      new Set(["anthropic:acct-2→anthropic:acct-3", "anthropic:acct-3→anthropic:acct-1"]),
    );
  });
});
