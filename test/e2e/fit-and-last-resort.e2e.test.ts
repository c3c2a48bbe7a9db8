/**
 * Routing by what fits and never refusing where the provider would answer, seen through the gateway with
 * real SDK clients and the fault-injecting mock provider (R-FB-5, R-FB-8, R-FB-9).
 */
import Anthropic from "@anthropic-ai/sdk";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { describe, expect, it, vi } from "vitest";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { harnessClosedAfterEachTest, KEYS } from "./fixtures/gateway-harness.js";

const start = harnessClosedAfterEachTest();

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

/** A long agent conversation of at least `bytes` bytes, with escapes, as agents send them. */
function conversation(bytes: number) {
  const turn = 'Here is the file:\n```ts\nexport const value = "x";\n```\nand a "quoted" note.\t'.repeat(40);
  const messages: { role: "user" | "assistant"; content: string }[] = [];
  while (JSON.stringify(messages).length < bytes) messages.push({ role: "user", content: turn }, { role: "assistant", content: turn });
  messages.push({ role: "user", content: "continue" });
  return messages;
}

/** An OpenAI upstream that answers every call from canned bytes and never parses what it is sent. */
async function startCannedUpstream() {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "mock-gpt", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const events = chunk({ role: "assistant", content: "ok" }, null) + chunk({}, "stop") + "data: [DONE]\n\n";
  const json = JSON.stringify({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "mock-gpt",
    choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  });
  let calls = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (part: Buffer) => chunks.push(part));
    request.on("end", () => {
      calls += 1;
      if (Buffer.concat(chunks).includes('"stream":true')) response.writeHead(200, { "content-type": "text/event-stream" }).end(events);
      else response.writeHead(200, { "content-type": "application/json" }).end(json);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("facts on demand on the same-wire lane (R-FB-8)", () => {
  it("R-FB-8: a 1 MB body to a model of unknown window is never parsed by the gateway", async () => {
    const upstream = await startCannedUpstream();
    const parse = vi.spyOn(JSON, "parse");
    try {
      const { openai } = await start({ model: { primary: "openai/mock-gpt", fallbacks: [] }, baseUrls: { openai: `${upstream.url}/v1` } });
      const messages = conversation(1024 * 1024);
      parse.mockClear();
      const answer = await openai.chat.completions.create({ model: "detour", messages });
      expect(answer.choices[0]?.message.content).toBe("ok");
      expect(upstream.calls()).toBe(1);
      // Nothing in this process (the upstream does not parse either) read the body as JSON.
      const longest = Math.max(0, ...parse.mock.calls.map(([text]) => (typeof text === "string" ? text.length : 0)));
      expect(longest).toBeLessThan(10_000);
    } finally {
      parse.mockRestore();
      await upstream.close();
    }
  });

  it("R-FB-8: a large body to a small known window is skipped with the exact estimate, not the bytes' bound", async () => {
    // Catalogue: gpt-3.5-turbo has a 16 385-token window and a 4 096-token output limit.
    const { openai, mock } = await start({ model: { primary: "openai/gpt-3.5-turbo", fallbacks: [] } });
    const text = "word ".repeat(40_000);
    const error = await openai.chat.completions.create(ask(text)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    // 200 000 characters / 4 + 4 for the message + 4 096 reserved for the answer.
    expect((error as Error).message).toContain("Skipping openai/gpt-3.5-turbo: request (~54100 tokens) exceeds its context window (16385)");
    expect(mock.counts().total).toBe(0);
  });

  it("R-FB-8: a large image body skips a text-only model as incompatible", async () => {
    const { openai, mock } = await start({ model: { primary: "openai/gpt-3.5-turbo", fallbacks: ["openai/gpt-4o"] } });
    const answer = await openai.chat.completions.create({
      model: "detour",
      messages: [
        ...conversation(64 * 1024),
        {
          role: "user",
          content: [
            { type: "text", text: "and this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
    });
    expect(answer.model).toBe("openai/gpt-4o");
    expect(mock.counts().byModel["gpt-3.5-turbo"]).toBeUndefined();
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
