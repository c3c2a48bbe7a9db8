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
});
