import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../ports/provider.js";
import { FakeClock } from "./fake-clock.js";
import { ScriptedProvider, cut, hang, httpError, networkError, success } from "./scripted-provider.js";

function context(model: string, profileId?: string, signal = new AbortController().signal) {
  return { model, profileId, signal };
}

describe("ScriptedProvider", () => {
  it("answers per profile and model, most specific queue first, then rules, then success", async () => {
    const provider = new ScriptedProvider({ id: "openai" });
    provider.script({}, success("any"));
    provider.script({ profileId: "openai:a", model: "gpt-5" }, success("exact"));
    provider.always({ model: "gpt-5-mini" }, success("mini rule"));
    const text = async (model: string, profileId?: string) => {
      const response = await provider.complete({ messages: [] }, context(model, profileId));
      return response.content[0]?.type === "text" ? response.content[0].text : "";
    };
    expect(await text("gpt-5", "openai:a")).toBe("exact");
    expect(await text("gpt-5", "openai:a")).toBe("any");
    expect(await text("gpt-5-mini")).toBe("mini rule");
    expect(await text("gpt-5-mini")).toBe("mini rule");
    expect(await text("gpt-5")).toBe("ok");
    expect(provider.calls.map((call) => [call.sequence, call.model, call.outcome])).toEqual([
      [1, "gpt-5", "success"],
      [2, "gpt-5", "success"],
      [3, "gpt-5-mini", "success"],
      [4, "gpt-5-mini", "success"],
      [5, "gpt-5", "success"],
    ]);
  });

  it("throws HTTP errors as UpstreamFailure with body and headers, and network errors with their code", async () => {
    const provider = new ScriptedProvider({ id: "anthropic" });
    provider.script({}, httpError(429, "slow down", { "retry-after": "3" }), networkError("ECONNRESET"));
    const first = await provider.complete({ messages: [] }, context("m")).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(UpstreamFailure);
    expect((first as UpstreamFailure).failure).toMatchObject({
      provider: "anthropic",
      status: 429,
      message: "slow down",
      headers: { "retry-after": "3" },
    });
    const second = await provider.complete({ messages: [] }, context("m")).catch((error: unknown) => error);
    expect((second as UpstreamFailure).failure).toMatchObject({ code: "ECONNRESET" });
    expect(provider.failures()).toHaveLength(2);
    expect(provider.calls.map((call) => [call.status, call.code])).toEqual([
      [429, undefined],
      [undefined, "ECONNRESET"],
    ]);
  });

  it("hangs until the signal aborts, then rejects with the signal's reason", async () => {
    const provider = new ScriptedProvider({ id: "openai" });
    provider.script({}, hang());
    const controller = new AbortController();
    const pending = provider.complete({ messages: [] }, context("m", undefined, controller.signal)).catch((error: unknown) => error);
    controller.abort(new Error("watchdog"));
    expect(((await pending) as Error).message).toBe("watchdog");
  });

  it("delays on the injected clock and streams success or a cut after partial text", async () => {
    const clock = new FakeClock();
    const provider = new ScriptedProvider({ id: "openai", clock });
    provider.script({}, success("late", { delayMs: 1_000 }), cut("partial"));
    const pending = provider.complete({ messages: [] }, context("m"));
    await clock.advanceAsync(1_000);
    expect((await pending).content).toEqual([{ type: "text", text: "late" }]);
    expect(provider.calls[0]?.at).toBe(clock.now() - 1_000);

    const events: string[] = [];
    const streamed = (async () => {
      for await (const event of provider.stream({ messages: [] }, context("m"))) events.push(event.type);
    })();
    await expect(streamed).rejects.toBeInstanceOf(UpstreamFailure);
    expect(events).toEqual(["message-start", "text-delta"]);
  });

  it("routes an attempt to the provider of its candidate and records the profile", async () => {
    const openai = new ScriptedProvider({ id: "openai" });
    const anthropic = new ScriptedProvider({ id: "anthropic" });
    const attempt = ScriptedProvider.route([openai, anthropic]);
    await attempt({ provider: "anthropic", model: "claude", profileId: "anthropic:a", signal: new AbortController().signal });
    expect(anthropic.calls[0]).toMatchObject({ profileId: "anthropic:a", model: "claude" });
    await expect(attempt({ provider: "mistral", model: "x", signal: new AbortController().signal })).rejects.toThrow(/mistral/);
  });
});
