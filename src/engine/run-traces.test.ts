import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { hashSessionKey } from "../ports/trace-store.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { httpError, ScriptedProvider, success } from "../testing/scripted-provider.js";
import { createDetour } from "./create-detour.js";

const CONFIG = {
  agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } } },
  state: { backend: "memory" as const },
};

async function detourWithTwoProviders(recordTraces?: boolean) {
  const store = new MemoryStateStore();
  await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-secret-openai" } });
  await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-secret-anthropic" } });
  const detour = await createDetour({ config: CONFIG, store, ...(recordTraces !== undefined ? { recordTraces } : {}) });
  const openai = new ScriptedProvider({ id: "openai" });
  const anthropic = new ScriptedProvider({ id: "anthropic" });
  return { detour, openai, anthropic, attempt: ScriptedProvider.route([openai, anthropic]) };
}

describe("detour.traces", () => {
  it("R-OB-4 lists the runs just answered, newest within the limit, filtered by outcome, model and session", async () => {
    const { detour, openai, anthropic, attempt } = await detourWithTwoProviders();
    openai.script({}, success("first"));
    const first = await detour.runWith({ sessionKey: "chat-1", attempt });
    openai.script({}, httpError(429, "slow down"));
    anthropic.always({}, success("second"));
    const movedOver = await detour.runWith({ sessionKey: "chat-2", attempt });

    // Listed straight after the answers: the queued writes are made before the read.
    const all = await detour.traces.list();
    expect(all.map((trace) => trace.runId)).toEqual([first.runId, movedOver.runId]);
    expect((await detour.traces.list({ limit: 1 })).map((trace) => trace.runId)).toEqual([movedOver.runId]);
    expect((await detour.traces.list({ model: "anthropic/claude-sonnet-4-6" })).map((trace) => trace.runId)).toEqual([movedOver.runId]);
    expect((await detour.traces.list({ sessionHash: hashSessionKey("chat-1") })).map((trace) => trace.runId)).toEqual([first.runId]);
    expect(await detour.traces.list({ outcome: "failed" })).toEqual([]);
    expect(await detour.traces.list({ agentId: "other" })).toEqual([]);
    expect(detour.traces.writes()).toEqual({ written: 2, dropped: 0, queued: 0 });
    await expect(detour.traces.list({ agentId: "../etc" })).rejects.toThrow(/Invalid agent id/);
    await detour.close();
  });

  it("R-OB-4 with recordTraces false no run is recorded", async () => {
    const { detour, openai, attempt } = await detourWithTwoProviders(false);
    openai.always({}, success("hi"));
    await detour.runWith({ attempt });
    expect(await detour.traces.list()).toEqual([]);
    expect(detour.traces.writes()).toEqual({ written: 0, dropped: 0, queued: 0 });
    await detour.close();
  });

  it("R-OB-4 the rate-limit headroom an upstream answer stated lands on that attempt of the trace", async () => {
    // A loopback OpenAI-style upstream that states its windows the way OpenAI does.
    const server: Server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, {
          "content-type": "application/json",
          "x-ratelimit-limit-requests": "100",
          "x-ratelimit-remaining-requests": "3",
          "x-ratelimit-reset-requests": "20s",
          "x-ratelimit-limit-tokens": "10000",
          "x-ratelimit-remaining-tokens": "5000",
          "x-ratelimit-reset-tokens": "6s",
        });
        response.end(
          JSON.stringify({
            id: "c1",
            object: "chat.completion",
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const store = new MemoryStateStore();
      await store.upsertProfile({ id: "house:a", credential: { type: "api_key", provider: "house", key: "sk-secret-house" } });
      const detour = await createDetour({
        config: {
          agents: { defaults: { model: { primary: "house/m" } } },
          models: { providers: { house: { api: "openai-chat", baseUrl: `http://127.0.0.1:${port}/v1`, models: [{ id: "m" }] } } },
          state: { backend: "memory" as const },
        },
        store,
      });
      const before = Date.now();
      await detour.run({ request: { messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] } });
      const [trace] = await detour.traces.list();
      const attempt = trace!.attempts[0]!;
      expect(attempt).toMatchObject({ provider: "house", model: "m", profileId: "house:a", outcome: "succeeded" });
      // Tightest window first; numbers and statuses only, no header text and no key.
      expect(attempt.headroom).toEqual([
        { window: "requests", model: "m", remainingShare: 0.03, remaining: 3, limit: 100, status: null, resetAt: expect.any(Number) },
        { window: "tokens", model: "m", remainingShare: 0.5, remaining: 5000, limit: 10000, status: null, resetAt: expect.any(Number) },
      ]);
      expect(attempt.headroom![0]!.resetAt).toBeGreaterThanOrEqual(before + 20_000);
      expect(JSON.stringify(trace)).not.toContain("sk-secret-house");
      await detour.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
