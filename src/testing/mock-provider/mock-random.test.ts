import { afterEach, describe, expect, it } from "vitest";
import { authHeaders, chatBody, post } from "./__fixtures__/http-helpers.js";
import { startMockProvider, type MockProvider } from "./mock-server.js";
import { mockRuleSchema, type MockRuleInput } from "./scenario-schema.js";

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function statuses(server: MockProvider, count: number): Promise<number[]> {
  const { path, body } = chatBody("openai", { model: "mock-gpt", prompt: "hi", stream: false });
  const seen: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await post(server.url, path, body, authHeaders("openai", "sk-random"));
    await response.arrayBuffer();
    seen.push(response.status);
  }
  return seen;
}

const halfRateLimited = (seed: number): MockRuleInput => ({
  random: { seed },
  steps: [{ fault: "rate-limit", retryAfterSeconds: 1 }, "ok"],
});

describe("random rules (R-CL-3)", () => {
  it("R-CL-3: a random rule answers a seeded, reproducible mix of its steps, weighted by times", async () => {
    mock = await startMockProvider({ scenario: [halfRateLimited(42)] });
    const first = await statuses(mock, 100);
    const failures = first.filter((status) => status === 429).length;
    expect(new Set(first)).toEqual(new Set([200, 429]));
    expect(failures).toBeGreaterThan(30);
    expect(failures).toBeLessThan(70);

    // reset() restarts the sequence: the same seed answers the same way in the same order.
    mock.reset();
    expect(await statuses(mock, 100)).toEqual(first);

    // Another seed is another sequence; times weighs a step (three ok for one 500: about a quarter fail).
    mock.setScenario([{ random: { seed: 7 }, steps: ["server-error", { fault: "ok", times: 3 }] }]);
    const weighted = await statuses(mock, 100);
    const errors = weighted.filter((status) => status === 500).length;
    expect(errors).toBeGreaterThan(10);
    expect(errors).toBeLessThan(40);
  });

  it("R-CL-3: a 429 drawn by a random rule carries its Retry-After", async () => {
    mock = await startMockProvider({ scenario: [{ random: { seed: 3 }, steps: [{ fault: "rate-limit", retryAfterSeconds: 1 }] }] });
    const { path, body } = chatBody("openai", { model: "mock-gpt", prompt: "hi", stream: false });
    const response = await post(mock.url, path, body, authHeaders("openai", "sk-random"));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
  });

  it("R-CL-3: a random rule's seed must be a whole non-negative number", () => {
    expect(mockRuleSchema.safeParse({ random: { seed: -1 }, steps: ["ok"] }).success).toBe(false);
    expect(mockRuleSchema.safeParse({ random: { seed: 1.5 }, steps: ["ok"] }).success).toBe(false);
    expect(mockRuleSchema.safeParse({ random: { seed: 1, extra: true }, steps: ["ok"] }).success).toBe(false);
  });
});
