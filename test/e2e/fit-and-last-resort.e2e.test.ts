/**
 * Routing by what fits and never refusing where the provider would answer, seen through the gateway with
 * real SDK clients and the fault-injecting mock provider (R-FB-5, R-FB-8, R-FB-9).
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { KEYS, startHarness, type Harness, type HarnessOptions } from "./fixtures/gateway-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: HarnessOptions): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

const ask = (text: string) => ({ model: "detour", messages: [{ role: "user" as const, content: text }] });

describe("what fits (R-FB-5, R-FB-8)", () => {
  it("R-FB-8: [small-window model, large-window model]: a request too large for the first skips it without a call", async () => {
    // Catalogue windows: gpt-3.5-turbo 16 385 tokens, gpt-4o 128 000.
    const { openai, mock } = await start({ model: { primary: "openai/gpt-3.5-turbo", fallbacks: ["openai/gpt-4o"] } });
    const { data, response } = await openai.chat.completions.create(ask("word ".repeat(20_000))).withResponse();
    expect(data.model).toBe("openai/gpt-4o");
    expect(mock.counts().byModel["gpt-3.5-turbo"]).toBeUndefined();
    expect(mock.counts().byModel["gpt-4o"]).toBe(1);
    // The skip is one of the attempts (without an upstream call), the answer the other.
    expect(response.headers.get("x-detour-attempts")).toBe("2");

    // A small request still goes to the first model.
    const small = await openai.chat.completions.create(ask("hi"));
    expect(small.model).toBe("openai/gpt-3.5-turbo");
  });

  it("R-FB-8: an image request skips a text-only model as incompatible", async () => {
    const { openai, mock } = await start({ model: { primary: "openai/gpt-3.5-turbo", fallbacks: ["openai/gpt-4o"] } });
    const answer = await openai.chat.completions.create({
      model: "detour",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
    });
    expect(answer.model).toBe("openai/gpt-4o");
    expect(mock.counts().byModel["gpt-3.5-turbo"]).toBeUndefined();
  });

  it("R-FB-5: a context overflow from a model of unknown window advances to the next candidate", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { model: "mock-gpt" }, steps: ["context-overflow"], then: "repeat-last" }],
    });
    const answer = await openai.chat.completions.create(ask("a long conversation"));
    expect(answer.model).toBe("anthropic/mock-claude");
    // A context overflow is the request's fault, not the key's: the second key is not tried.
    expect(mock.counts().byModel["mock-gpt"]).toBe(1);
    expect(mock.counts().byModel["mock-claude"]).toBe(1);
  });
});

describe("never less available than the provider (R-FB-9)", () => {
  it("R-FB-9: one key, no fallback, 50 % of calls answered 429: Detour answers at least as often as the provider", async () => {
    const requests = 60;
    const random = new SeededRandom(20_261_201);
    const steps = Array.from({ length: requests }, () => (random.next() < 0.5 ? "rate-limit" : "ok"));
    const { anthropic, mock } = await start({
      model: { primary: "anthropic/mock-claude", fallbacks: [] },
      scenario: [{ match: { api: "anthropic" }, steps }],
    });
    const send = async (client: Anthropic): Promise<boolean> => {
      try {
        await client.messages.create({ model: "mock-claude", max_tokens: 16, messages: [{ role: "user", content: "hi" }] });
        return true;
      } catch (error) {
        if (error instanceof Anthropic.APIError) return false;
        throw error;
      }
    };

    const direct = new Anthropic({ baseURL: mock.url, apiKey: KEYS.anthropicA, maxRetries: 0, timeout: 10_000 });
    let directAnswers = 0;
    for (let index = 0; index < requests; index += 1) if (await send(direct)) directAnswers += 1;
    expect(mock.counts().total).toBe(requests);

    mock.reset();
    let detourAnswers = 0;
    for (let index = 0; index < requests; index += 1) if (await send(anthropic)) detourAnswers += 1;

    expect(directAnswers).toBeGreaterThan(requests * 0.3);
    expect(directAnswers).toBeLessThan(requests * 0.7);
    expect(detourAnswers).toBeGreaterThanOrEqual(directAnswers);
    // Every request reached the provider: none was refused on a guessed cooldown without a call.
    expect(mock.counts().total).toBe(requests);
  });
});
