import { afterEach, describe, expect, it } from "vitest";
import { readHeadroom } from "../../core/headroom/header-readers.js";
import { FakeClock } from "../fake-clock.js";
import { authHeaders, chatBody, post } from "./__fixtures__/http-helpers.js";
import { startMockProvider, type MockProvider } from "./mock-server.js";
import { loadScenarioFile, parseScenarioFile } from "./scenario-file.js";
import type { MockKeyedWireApi } from "./scenario-schema.js";

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function send(server: MockProvider, api: MockKeyedWireApi, key: string) {
  const { path, body } = chatBody(api, { model: "model-a", prompt: "hello" });
  const response = await post(server.url, path, body, authHeaders(api, key));
  await response.text();
  return { status: response.status, headers: Object.fromEntries(response.headers.entries()) };
}

describe("R-PO-7: mock provider budgets", () => {
  it("R-PO-7: OpenAI-style headers count down per key and a spent budget answers 429 until its window resets", async () => {
    const clock = new FakeClock();
    mock = await startMockProvider({ clock, budgets: { "sk-a": { requests: 2, windowSeconds: 60 } } });
    const first = await send(mock, "openai", "sk-a");
    expect(first.status).toBe(200);
    expect(first.headers["x-ratelimit-limit-requests"]).toBe("2");
    expect(first.headers["x-ratelimit-remaining-requests"]).toBe("1");
    expect(first.headers["x-ratelimit-reset-requests"]).toBe("1m0s");
    clock.advance(1500);
    const second = await send(mock, "openai", "sk-a");
    expect(second.headers["x-ratelimit-remaining-requests"]).toBe("0");
    expect(second.headers["x-ratelimit-reset-requests"]).toBe("58.5s");
    const third = await send(mock, "openai", "sk-a");
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("59");
    expect(third.headers["x-ratelimit-remaining-requests"]).toBe("0");
    // A key without a budget is unlimited and sends no rate-limit headers.
    const other = await send(mock, "openai", "sk-free");
    expect(other.status).toBe(200);
    expect(other.headers["x-ratelimit-limit-requests"]).toBeUndefined();
    expect(mock.budgets()["sk-a"]?.rejected).toBe(1);
    clock.advance(60_000);
    expect((await send(mock, "openai", "sk-a")).status).toBe(200);
    // What the mock sends is what Detour reads.
    const readings = readHeadroom(second.headers, { now: clock.now(), model: "model-a" });
    expect(readings[0]).toMatchObject({ window: "requests", remaining: 0, remainingShare: 0 });
  });

  it("R-PO-7: `usedRequests` starts a key's first windows part spent (an account used earlier); the next window starts empty", async () => {
    const clock = new FakeClock();
    mock = await startMockProvider({
      clock,
      budgets: { "sk-used": { requests: 100, usedRequests: 96, fiveHourRequests: 200 }, "sk-spent": { requests: 5, usedRequests: 9 } },
    });
    const first = await send(mock, "openai", "sk-used");
    expect(first.status).toBe(200);
    expect(first.headers["x-ratelimit-remaining-requests"]).toBe("3");
    expect(first.headers["x-codex-primary-used-percent"]).toBe("48.5");
    // Capped at the window's limit: more used than allowed is a spent window, answered 429 at once.
    expect((await send(mock, "openai", "sk-spent")).status).toBe(429);
    expect(mock.budgets()["sk-spent"]?.windows[0]?.used).toBe(5);
    clock.advance(5 * 3_600_000);
    const later = await send(mock, "openai", "sk-used");
    expect(later.headers["x-ratelimit-remaining-requests"]).toBe("99");
    expect(later.headers["x-codex-primary-used-percent"]).toBe("0.5");
  });

  it("R-PO-7: Anthropic answers carry anthropic-ratelimit-* buckets and the unified 5 h / 7 d windows", async () => {
    const clock = new FakeClock();
    mock = await startMockProvider({
      clock,
      budgets: { "sk-ant": { requests: 50, tokens: 100_000, fiveHourRequests: 10, sevenDayRequests: 100, windowStartedSecondsAgo: 3600 } },
    });
    let last = await send(mock, "anthropic", "sk-ant");
    for (let index = 0; index < 8; index += 1) last = await send(mock, "anthropic", "sk-ant");
    expect(last.status).toBe(200);
    expect(last.headers["anthropic-ratelimit-requests-remaining"]).toBe("41");
    expect(Number(last.headers["anthropic-ratelimit-tokens-remaining"])).toBeLessThan(100_000);
    expect(last.headers["anthropic-ratelimit-unified-5h-utilization"]).toBe("0.9");
    expect(last.headers["anthropic-ratelimit-unified-5h-status"]).toBe("allowed_warning");
    expect(last.headers["anthropic-ratelimit-unified-representative-claim"]).toBe("five_hour");
    // The window began an hour before the mock started: it resets four hours from now.
    expect(Number(last.headers["anthropic-ratelimit-unified-5h-reset"])).toBe(Math.floor((clock.now() + 4 * 3_600_000) / 1000));
    const windows = readHeadroom(last.headers, { now: clock.now(), model: "model-a" }).map((reading) => reading.window);
    expect(windows).toEqual(["requests", "tokens", "unified-5h", "unified-7d", "unified"]);
    expect((await send(mock, "anthropic", "sk-ant")).status).toBe(200);
    const spent = await send(mock, "anthropic", "sk-ant");
    expect(spent.status).toBe(429);
    expect(spent.headers["anthropic-ratelimit-unified-5h-status"]).toBe("rejected");
  });

  it("R-PO-7: Codex-style subscription windows and OpenRouter-style key buckets", async () => {
    const clock = new FakeClock();
    mock = await startMockProvider({
      clock,
      budgets: {
        "sk-codex": { fiveHourRequests: 4, sevenDayRequests: 40 },
        "sk-or": { requests: 20, headers: "openrouter" },
      },
    });
    const codex = await send(mock, "openai", "sk-codex");
    expect(codex.headers["x-codex-primary-used-percent"]).toBe("25");
    expect(codex.headers["x-codex-primary-window-minutes"]).toBe("300");
    expect(codex.headers["x-codex-primary-reset-after-seconds"]).toBe("18000");
    expect(codex.headers["x-codex-secondary-window-minutes"]).toBe("10080");
    const router = await send(mock, "openai", "sk-or");
    expect(router.headers["x-ratelimit-remaining"]).toBe("19");
    expect(router.headers["x-ratelimit-reset"]).toBe(String(clock.now() + 60_000));
    expect(router.headers["x-ratelimit-remaining-requests"]).toBeUndefined();
  });

  it("R-PO-7: `headers: none` enforces the budget without telling (Detour cannot see headroom)", async () => {
    mock = await startMockProvider({ clock: new FakeClock(), budgets: { "sk-a": { requests: 1, headers: "none" } } });
    const first = await send(mock, "openai", "sk-a");
    expect(Object.keys(first.headers).some((name) => name.includes("ratelimit"))).toBe(false);
    expect((await send(mock, "openai", "sk-a")).status).toBe(429);
  });

  it("R-PO-7: scenario files declare budgets; setScenario and reset start them over", async () => {
    const set = parseScenarioFile(
      JSON.stringify({ scenarios: { pool: { rules: [], budgets: { "sk-a": { requests: 1 } } } }, default: "pool" }),
    );
    mock = await startMockProvider({ clock: new FakeClock(), scenario: "pool", scenarios: set.scenarios });
    expect((await send(mock, "openai", "sk-a")).status).toBe(200);
    expect((await send(mock, "openai", "sk-a")).status).toBe(429);
    mock.reset();
    expect((await send(mock, "openai", "sk-a")).status).toBe(200);
    expect(() => parseScenarioFile(JSON.stringify({ rules: [], budgets: { "sk-a": { requests: 0 } } }))).toThrow(/budgets/);
  });

  it("R-PO-7: the example scenario file docs/scenarios/headroom.json5 loads and its budgets apply", async () => {
    const set = await loadScenarioFile(new URL("../../../docs/scenarios/headroom.json5", import.meta.url).pathname);
    expect(Object.keys(set.scenarios)).toEqual(["key-pool", "subscriptions"]);
    mock = await startMockProvider({ clock: new FakeClock(), scenario: "subscriptions", scenarios: set.scenarios });
    const answer = await send(mock, "anthropic", "sk-ant-acct-2");
    expect(answer.headers["anthropic-ratelimit-unified-5h-utilization"]).toBe("0.1");
  });
});
