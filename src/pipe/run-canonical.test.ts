import { describe, expect, it } from "vitest";
import { FailoverError, FallbackSummaryError } from "../core/errors.js";
import type { CanonicalRequest, CanonicalStreamEvent } from "../ports/canonical.js";
import { FakeClock } from "../testing/fake-clock.js";
import { cut, hang, httpError, success } from "../testing/scripted-provider.js";
import type { Provider } from "../ports/provider.js";
import { createScriptedDetour } from "../engine/__fixtures__/scripted-detour.js";
import { createCanonicalRunner } from "./run-canonical.js";

const request: CanonicalRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };

async function drain(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const seen: CanonicalStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("createCanonicalRunner", () => {
  it("runs a non-streamed request and rotates to the next profile on a 429", async () => {
    const clock = new FakeClock();
    const { runner, openai } = await createScriptedDetour({ clock });
    openai.script({ profileId: "openai:a" }, httpError(429, "rate limit exceeded"));
    openai.always({ profileId: "openai:b" }, success("from b"));
    const outcome = await runner.run({ request });
    expect(outcome.provider).toBe("openai");
    expect(outcome.profileId).toBe("openai:b");
    expect(outcome.result.content).toEqual([{ type: "text", text: "from b" }]);
    expect(openai.calls.map((call) => call.request?.model)).toEqual(["gpt-a", "gpt-a"]);
  });

  it("R-ST-1: a streamed run resolves at the commit point with the held frames first", async () => {
    const clock = new FakeClock();
    const { runner } = await createScriptedDetour({ clock });
    const outcome = await runner.run({ request, stream: true });
    const events = await drain(outcome.result.events);
    expect(events.map((event) => event.type)).toEqual(["message-start", "text-delta", "finish"]);
    expect(outcome.model).toBe("gpt-a");
  });

  it("R-ST-1: no first token within ttftTimeoutSeconds fails over to the next model", async () => {
    const clock = new FakeClock();
    const { runner, openai, anthropic } = await createScriptedDetour({ clock, ttftTimeoutSeconds: 1 });
    openai.always({}, hang());
    anthropic.always({}, success("rescued"));
    const pending = runner.run({ request, stream: true });
    await clock.advanceAsync(5_000);
    const outcome = await pending;
    expect(outcome.provider).toBe("anthropic");
    expect(outcome.attempts.map((attempt) => attempt.reason)).toEqual(["timeout"]);
    const text = (await drain(outcome.result.events)).flatMap((event) => (event.type === "text-delta" ? [event.text] : []));
    expect(text.join("")).toBe("rescued");
  });

  it("R-ST-2: a cut after the commit throws to the consumer and is recorded on the profile", async () => {
    const clock = new FakeClock();
    const { runner, openai, store } = await createScriptedDetour({ clock });
    openai.script({ profileId: "openai:a" }, cut("partial answer"));
    const outcome = await runner.run({ request, stream: true });
    expect(outcome.profileId).toBe("openai:a");
    const seen: CanonicalStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of outcome.result.events) seen.push(event);
    })().catch((caught: unknown) => caught);
    expect(seen.some((event) => event.type === "text-delta")).toBe(true);
    expect(seen.some((event) => event.type === "finish")).toBe(false);
    expect(error).toBeInstanceOf(Error);
    const stats = await store.getUsageStats("openai:a");
    expect(stats?.failureCounts?.timeout).toBe(1);
  });

  it("R-ST-2: a client that goes away after the commit is not recorded as a failure", async () => {
    const clock = new FakeClock();
    const { runner, openai, store } = await createScriptedDetour({ clock });
    openai.script({ profileId: "openai:a" }, cut("partial answer"));
    const caller = new AbortController();
    const outcome = await runner.run({ request, stream: true, signal: caller.signal });
    caller.abort(new DOMException("client went away", "AbortError"));
    await drain(outcome.result.events).catch(() => undefined);
    expect((await store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
  });

  it("R-ST-2: a consumer done within the held head (a finish without content) still lets go of the upstream call, without cutting it", async () => {
    const clock = new FakeClock();
    const { detour } = await createScriptedDetour({ clock });
    let upstreamSignal: AbortSignal | undefined;
    let released = false;
    const finishOnly: Provider = {
      id: "openai",
      api: "openai-chat",
      complete: () => Promise.reject(new Error("not used")),
      async *stream(_request, context) {
        upstreamSignal = context.signal;
        try {
          yield { type: "message-start", id: "msg", model: "gpt-a" };
          yield { type: "finish", reason: "stop", usage: { inputTokens: 1, outputTokens: 0 } };
          // The upstream never ends by itself (no [DONE], connection kept open).
          await new Promise(() => {});
        } finally {
          released = true;
        }
      },
    };
    const runner = createCanonicalRunner(detour, (id) => (id === "openai" ? finishOnly : undefined), {
      clock,
      ttftTimeoutSeconds: 1,
      streamStallSeconds: 2,
    });
    const outcome = await runner.run({ request, stream: true });
    for await (const event of outcome.result.events) {
      if (event.type === "finish") break;
    }
    // Returned, so a real provider drains its body's last bytes and the connection is reused.
    expect(released).toBe(true);
    expect(upstreamSignal?.aborted).toBe(false);
  });

  it("a single failed attempt surfaces as a classified FailoverError with the provider's status", async () => {
    const clock = new FakeClock();
    const { runner, openai } = await createScriptedDetour({ clock });
    openai.always({}, httpError(400, "messages: field required"));
    const error = await runner.run({ request, model: "openai/gpt-a", fallbacks: "none" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FailoverError);
    expect((error as FailoverError).status).toBe(400);
    expect((error as FailoverError).reason).toBe("format");
    expect((error as FailoverError).provider).toBe("openai");
  });

  it("exhaustion across models is a FallbackSummaryError", async () => {
    const clock = new FakeClock();
    const { runner, openai, anthropic } = await createScriptedDetour({ clock });
    openai.always({}, httpError(503, "overloaded"));
    anthropic.always({}, httpError(529, "overloaded"));
    const error = await runner.run({ request }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FallbackSummaryError);
  });

  it("a chain model whose provider is not available fails over instead of crashing", async () => {
    const clock = new FakeClock();
    const { runner } = await createScriptedDetour({ clock });
    const outcome = await runner.run({ request, model: "google/gemini-x", fallbacks: ["anthropic/claude-b"] });
    expect(outcome.provider).toBe("anthropic");
    expect(outcome.attempts[0]?.reason).toBe("model_not_found");
  });
});
