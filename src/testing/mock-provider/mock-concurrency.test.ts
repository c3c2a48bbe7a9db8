import { afterEach, describe, expect, it } from "vitest";
import { startMockProvider, type MockProvider } from "./index.js";

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function chat(provider: MockProvider, key: string): Promise<Response> {
  return fetch(`${provider.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: "mock-gpt", messages: [{ role: "user", content: "hi" }] }),
  });
}

describe("mock provider concurrency", () => {
  it("R-PO-8 records the most requests in flight per key and refuses one over its limit with a concurrency 429", async () => {
    mock = await startMockProvider({
      scenario: { rules: [{ steps: [{ fault: "slow-first-token", delayMs: 300 }], then: "repeat-last" }] },
      concurrencyLimits: { "sk-limited": 2 },
    });
    const responses = await Promise.all([
      chat(mock, "sk-limited"),
      chat(mock, "sk-limited"),
      chat(mock, "sk-limited"),
      chat(mock, "sk-free"),
      chat(mock, "sk-free"),
      chat(mock, "sk-free"),
    ]);
    const statuses = responses.map((response) => response.status);
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(bodies.find((_body, index) => statuses[index] === 429)).toContain("Too many concurrent requests");
    const seen = mock.concurrency();
    expect(seen["sk-limited"]).toEqual({ inFlight: 0, maxInFlight: 2, rejected: 1 });
    expect(seen["sk-free"]).toEqual({ inFlight: 0, maxInFlight: 3, rejected: 0 });
  });
});

describe("mock provider under load", () => {
  it("holds more than ten requests at once without a listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      mock = await startMockProvider({
        scenario: { rules: [{ steps: [{ fault: "slow-first-token", delayMs: 200 }], then: "repeat-last" }] },
      });
      const provider = mock;
      const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => chat(provider, `sk-${index}`)));
      expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 12 }, () => 200));
      await Promise.all(responses.map((response) => response.text()));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});
