import { afterEach, describe, expect, it } from "vitest";
import { jsonText, post } from "./__fixtures__/http-helpers.js";
import { PREFILL_REJECTED_MESSAGE, startMockProvider, type MockProvider } from "./mock-server.js";
import type { MockRuleInput } from "./scenario-schema.js";

type Json = Record<string, any>;

const ANSWER = "The quick brown fox jumps over the lazy dog and runs into the woods.";
const DELIVERED = "The quick brown fox jumps over";
const KEY = "sk-continuation-test";

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function ask(rules: MockRuleInput[], api: "openai" | "anthropic", messages: { role: string; content: string }[]) {
  mock ??= await startMockProvider({ scenario: rules });
  const body = api === "openai" ? { model: "m", messages } : { model: "m", max_tokens: 100, messages };
  const headers: Record<string, string> =
    api === "openai" ? { authorization: `Bearer ${KEY}` } : { "x-api-key": KEY, "anthropic-version": "2023-06-01" };
  const response = await post(mock.url, api === "openai" ? "/v1/chat/completions" : "/v1/messages", body, headers);
  return { status: response.status, fault: response.headers.get("x-mock-fault"), body: (await response.json()) as Json };
}

const question = { role: "user", content: "tell me" };
const instructed = [question, { role: "assistant", content: DELIVERED }, { role: "user", content: "continue exactly where you stopped" }];
const prefilled = [question, { role: "assistant", content: DELIVERED }];

describe("mock provider: fixed answers and continuations (R-ST-4)", () => {
  it("R-ST-4: a rule's answer replaces the greeting", async () => {
    const answered = await ask([{ answer: ANSWER, steps: ["ok"] }], "openai", [question]);
    expect(jsonText("openai", answered.body)).toBe(ANSWER);
  });

  const styles: [string, "exact" | "repeat-last-words" | "restart" | undefined, string][] = [
    ["exact (default)", undefined, ANSWER.slice(DELIVERED.length)],
    ["repeat-last-words", "repeat-last-words", ` jumps over${ANSWER.slice(DELIVERED.length)}`],
    ["restart", "restart", ANSWER],
  ];
  for (const [name, style, expected] of styles) {
    it(`R-ST-4: an instructed continuation answers ${name}`, async () => {
      const rules: MockRuleInput[] = [
        { answer: ANSWER, ...(style ? { continuation: { style } } : {}), steps: ["ok"], then: "repeat-last" },
      ];
      expect(jsonText("anthropic", (await ask(rules, "anthropic", instructed)).body)).toBe(expected);
    });
  }

  it("R-ST-4: a prefill is accepted by default and continued from its end", async () => {
    const answered = await ask([{ answer: ANSWER, steps: ["ok"] }], "anthropic", prefilled);
    expect(answered.status).toBe(200);
    expect(jsonText("anthropic", answered.body)).toBe(ANSWER.slice(DELIVERED.length));
  });

  it("R-ST-4: prefill: reject answers a prefill with a 400 in the wire's error shape, and still takes the instructed form", async () => {
    const rules: MockRuleInput[] = [{ answer: ANSWER, continuation: { prefill: "reject" }, steps: ["ok"], then: "repeat-last" }];
    const rejected = await ask(rules, "anthropic", prefilled);
    expect(rejected.status).toBe(400);
    expect(rejected.fault).toBe("prefill-rejected");
    expect(rejected.body).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: PREFILL_REJECTED_MESSAGE } });
    const continued = await ask(rules, "anthropic", instructed);
    expect(jsonText("anthropic", continued.body)).toBe(ANSWER.slice(DELIVERED.length));
  });

  it("R-ST-4: an ordinary earlier turn is not taken for a continuation", async () => {
    const answered = await ask([{ answer: ANSWER, steps: ["ok"] }], "openai", [
      question,
      { role: "assistant", content: "Sure." },
      question,
    ]);
    expect(jsonText("openai", answered.body)).toBe(ANSWER);
  });
});
