/**
 * Racing instead of waiting (R-HG-1…R-HG-4) and learned first-token deadlines (R-TT-1), at the engine: library
 * runs through `createDetour`, FakeClock-driven, with providers whose answers arrive on the clock. The loser's
 * real upstream connection closing is proven over loopback in test/e2e/hedging.e2e.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../config/index.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import type { DetourEvent } from "../ports/events.js";
import type { Provider, ProviderCallContext } from "../ports/provider.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { clockedDetour, trackSettlement } from "./__fixtures__/clocked-detour.js";
import type { AttemptContext, Detour } from "./index.js";

const request: CanonicalRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] };
const NEVER = Number.MAX_SAFE_INTEGER;

/** When a model's first token comes; `NEVER` = a silent route (not even a lifecycle frame). */
type Pace = { firstTokenMs: number; silent?: boolean };

interface Call {
  profileId: string | undefined;
  model: string;
  at: number;
  abortedAt?: number;
}

class PacedProvider implements Provider {
  readonly api = "openai-chat" as const;
  readonly calls: Call[] = [];

  constructor(
    readonly id: string,
    private readonly clock: FakeClock,
    private readonly paces: Record<string, Pace>,
  ) {}

  async complete(): Promise<CanonicalResponse> {
    throw new Error("streamed upstream only");
  }

  async *stream(_request: CanonicalRequest, context: ProviderCallContext & { profileId?: string }): AsyncIterable<CanonicalStreamEvent> {
    const key =
      context.profileId && this.paces[`${context.model}@${context.profileId}`] ? `${context.model}@${context.profileId}` : context.model;
    const pace = this.paces[key];
    if (!pace) throw new Error(`no pace for ${key}`);
    const call: Call = { profileId: context.profileId, model: context.model, at: this.clock.now() };
    this.calls.push(call);
    context.signal.addEventListener("abort", () => (call.abortedAt = this.clock.now()), { once: true });
    if (!pace.silent) yield { type: "message-start", id: `${this.id}-1`, model: context.model };
    await this.clock.sleep(pace.firstTokenMs, context.signal);
    yield { type: "text-delta", text: `${this.id} answers` };
    yield { type: "finish", reason: "stop", usage: { inputTokens: 5, outputTokens: 2 } };
  }
}

const SILENT: Pace = { firstTokenMs: NEVER, silent: true };
const FAST: Pace = { firstTokenMs: 200 };

async function engine(options: {
  paces: Record<string, Pace>;
  fallbackPace?: Pace;
  fallbacks?: string[];
  openaiProfiles?: string[];
  hedging?: NonNullable<NonNullable<NonNullable<DetourConfigInput["agents"]>["defaults"]>["modelFailover"]>["hedging"];
  gateway?: DetourConfigInput["gateway"];
}) {
  const clock = new FakeClock();
  const store = new MemoryStateStore();
  for (const id of options.openaiProfiles ?? ["openai:a"]) {
    await store.upsertProfile({ id, credential: { type: "api_key", provider: "openai", key: `sk-hedge-${id}-0123456789` } });
  }
  await store.upsertProfile({ id: "anthropic:a", credential: { type: "api_key", provider: "anthropic", key: "sk-ant-hedge-0123456789" } });
  const openai = new PacedProvider("openai", clock, options.paces);
  const anthropic = new PacedProvider("anthropic", clock, { "claude-fallback": options.fallbackPace ?? FAST, "claude-last": FAST });
  const { detour, events } = await clockedDetour({
    clock,
    store,
    providers: [openai, anthropic],
    config: {
      agents: {
        defaults: {
          model: { primary: "openai/gpt-4o-mini", fallbacks: options.fallbacks ?? ["anthropic/claude-fallback"] },
          modelFailover: {
            retrySameProfileOnTimeout: 1,
            retryBackoffMs: [300, 300],
            shortWaitSeconds: 0,
            waitForCooldownMaxSeconds: 0,
            ...(options.hedging ? { hedging: options.hedging } : {}),
          },
        },
      },
      ...(options.gateway ? { gateway: options.gateway } : {}),
    },
  });
  return { clock, detour, openai, anthropic, events, store };
}

function hedges(events: DetourEvent[]) {
  return events.flatMap((event) => (event.type === "hedge" ? [[event.provider, event.outcome]] : []));
}

describe("hedged attempts (R-HG-1)", () => {
  it.each([false, true])(
    "R-HG-1: a silent primary is raced after hedgeAfter and the fallback answers in seconds (streamed: %s); the loser is aborted and only listed",
    async (stream) => {
      const { clock, detour, openai, anthropic, events, store } = await engine({ paces: { "gpt-4o-mini": SILENT } });
      // The provider's last statement of the primary's request window, read before this run.
      const window = {
        window: "requests",
        family: "openai",
        limit: 100,
        remaining: 50,
        remainingShare: 0.5,
        resetAt: clock.now() + 60_000,
        readAt: clock.now() - 1_000,
      };
      await store.recordHeadroom("openai:a", [window], clock.now());
      const run = trackSettlement<{ provider: string; attempts: unknown[]; notice?: string; result: unknown }>(
        clock,
        stream ? detour.run({ request, stream: true }) : detour.run({ request }),
      );
      await clock.advanceAsync(4_900);
      expect(anthropic.calls).toEqual([]);
      await clock.advanceAsync(500);
      expect(run.error).toBeUndefined();
      const outcome = run.value!;
      expect(outcome.provider).toBe("anthropic");
      // Cold model: min(5 s, 15 s ÷ 3), then the fallback's 200 ms first token.
      expect(run.settledAfterMs).toBeGreaterThanOrEqual(5_200);
      expect(run.settledAfterMs).toBeLessThan(5_400);
      expect(anthropic.calls.map((call) => call.at - openai.calls[0]!.at)).toEqual([5_000]);
      // The loser was aborted the moment the hedge had content.
      expect(openai.calls[0]!.abortedAt).toBe(openai.calls[0]!.at + 5_200);
      expect(outcome.attempts).toEqual([
        expect.objectContaining({ provider: "openai", model: "gpt-4o-mini", profileId: "openai:a", hedge: "lost" }),
      ]);
      // hedge_lost: no cooldown, no failure count on the loser; a notice because another model answered.
      expect((await store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
      expect(outcome.notice).toContain("anthropic/claude-fallback");
      expect(hedges(events)).toEqual([
        ["openai", "started"],
        ["openai", "won"],
      ]);
      const decisions = events
        .filter((event) => event.type === "model_fallback_decision")
        .map((event) => [event.candidateModel, event.decision]);
      expect(decisions[0]).toEqual(["openai/gpt-4o-mini", "hedge_started"]);
      if (stream) {
        const stream = (outcome.result as { events: AsyncIterable<CanonicalStreamEvent> }).events;
        const texts: string[] = [];
        for await (const event of stream) if (event.type === "text-delta") texts.push(event.text);
        expect(texts).toEqual(["anthropic answers"]);
      }
      await clock.advanceAsync(10);
      const finished = events.filter((event) => event.type === "attempt_finished");
      expect(finished.map((event) => [event.provider, event.outcome, event.hedge ?? false])).toEqual([
        ["anthropic", "succeeded", true],
        ["openai", "aborted", false],
      ]);
      expect(
        events.filter((event) => event.type === "model_fallback_decision").map((event) => [event.candidateModel, event.decision]),
      ).toEqual([
        ["openai/gpt-4o-mini", "hedge_started"],
        ["anthropic/claude-fallback", "candidate_succeeded"],
        ["openai/gpt-4o-mini", "hedge_lost"],
      ]);
      expect(events.filter((event) => event.type === "run_finished")).toEqual([
        expect.objectContaining({ outcome: "succeeded", provider: "anthropic", model: "claude-fallback" }),
      ]);
      // Cost honesty: the loser was closed before any usage, so the request's input is charged as an estimate.
      const aborted = events.find((event) => event.type === "attempt_finished" && event.outcome === "aborted");
      expect(aborted).toMatchObject({ provider: "openai", usageEstimated: true, inputTokens: expect.any(Number) });
      const spent = (await detour.status()).agents[0]?.profiles.find((profile) => profile.id === "openai:a")?.spendUsd24h;
      expect(spent).toBeGreaterThan(0);
      // …and to the profile's headroom: the provider counted the request it never answered.
      await clock.advanceAsync(10);
      const [charged] = (await store.headroomReadings(["openai:a"], clock.now()))["openai:a"] ?? [];
      expect(charged).toMatchObject({ window: "requests", remaining: 49 });
    },
  );

  it("R-HG-1: a slow primary whose first token comes within its usual time still wins; the hedge is aborted and nothing is recorded", async () => {
    const { clock, detour, anthropic, events, store } = await engine({
      paces: { "gpt-4o-mini": { firstTokenMs: 6_000 } },
      fallbackPace: { firstTokenMs: 4_000 },
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(6_100);
    expect(run.value?.provider).toBe("openai");
    expect(run.settledAfterMs).toBe(6_000);
    expect(run.value?.notice).toBeUndefined();
    expect(anthropic.calls).toHaveLength(1);
    expect(anthropic.calls[0]!.abortedAt).toBe(anthropic.calls[0]!.at + 1_000);
    expect(hedges(events)).toEqual([
      ["openai", "started"],
      ["openai", "lost"],
    ]);
    expect(run.value?.attempts).toEqual([expect.objectContaining({ provider: "anthropic", hedge: "lost" })]);
    expect((await store.getUsageStats("anthropic:a"))?.errorCount ?? 0).toBe(0);
  });

  it("R-HG-1: a strict user selection hedges only to another profile of the same model, never the same profile", async () => {
    const { clock, detour, openai, anthropic } = await engine({
      openaiProfiles: ["openai:a", "openai:b"],
      paces: { "gpt-4o-mini@openai:a": SILENT, "gpt-4o-mini@openai:b": FAST },
    });
    const run = trackSettlement(clock, detour.run({ request, model: "openai/gpt-4o-mini", strictModel: true }));
    await clock.advanceAsync(5_300);
    expect(run.value).toMatchObject({ provider: "openai", profileId: "openai:b" });
    expect(run.value?.notice).toBeUndefined();
    expect(openai.calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b"]);
    expect(anthropic.calls).toEqual([]);
  });

  it("R-HG-1: at most maxExtra extra attempts per request", async () => {
    const { clock, detour, openai, anthropic, events } = await engine({
      paces: { "gpt-4o-mini": SILENT },
      fallbackPace: SILENT,
      fallbacks: ["anthropic/claude-fallback", "anthropic/claude-last"],
      hedging: { maxExtra: 1 },
    });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(12_000);
    expect(run.settledAfterMs).toBeUndefined();
    // The primary and one hedge in flight; the hedge's own slowness starts no third.
    expect(openai.calls).toHaveLength(1);
    expect(anthropic.calls.map((call) => call.model)).toEqual(["claude-fallback"]);
    expect(hedges(events)).toEqual([["openai", "started"]]);
    await clock.advanceAsync(60_000);
    // Both first-token deadlines ran out; the run moved on to the last candidate, which answered.
    expect(run.value?.model).toBe("claude-last");
  });

  it("R-HG-1: with hedging off the run waits for the first-token deadline as before", async () => {
    const { clock, detour, anthropic } = await engine({ paces: { "gpt-4o-mini": SILENT }, hedging: { enabled: false } });
    const run = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(14_000);
    expect(anthropic.calls).toEqual([]);
    // R-RN-4: the timeout first retries the same profile, then the fallback answers.
    await clock.advanceAsync(20_000);
    expect(run.value?.provider).toBe("anthropic");
    expect(run.settledAfterMs).toBeGreaterThan(30_000);
  });

  it("R-HG-1: without anything to race with (one model, one profile) the R-RN-4 same-profile retry still runs", async () => {
    const { clock, detour, openai, events } = await engine({ paces: { "gpt-4o-mini": SILENT }, fallbacks: [] });
    const run = trackSettlement(clock, detour.run({ request, fallbacks: "none" }));
    await clock.advanceAsync(40_000);
    expect(run.error).toBeDefined();
    expect(openai.calls).toHaveLength(2);
    expect(events.some((event) => event.type === "timeout_retry_scheduled")).toBe(true);
    expect(hedges(events)).toEqual([]);
  });
});

/**
 * A run of 40 estimated input tokens whose openai attempt does `beforeSilence` and then never answers, while
 * anthropic answers 200 ms after it starts: the hedge wins and openai is the loser.
 */
function hedgedRun(clock: FakeClock, detour: Detour, beforeSilence: (context: AttemptContext) => void) {
  return trackSettlement(
    clock,
    detour.runWith<string>({
      reportsProgress: true,
      // The estimate a loser is charged when its provider stated nothing.
      requestFacts: { inputTokens: 40, modalities: [] },
      attempt: async (context) => {
        if (context.provider === "openai") {
          beforeSilence(context);
          return clock.sleep(NEVER, context.signal).then(() => "never");
        }
        await clock.sleep(200, context.signal);
        context.upstreamProgress?.("content");
        return "fallback answers";
      },
    }),
  );
}

describe("a hedge loser's stated usage (R-HG-1)", () => {
  it("R-HG-1: a loser whose provider stated 1234 input tokens before it stalled is charged 1234, not the estimate", async () => {
    const { clock, detour, events, store } = await engine({ paces: {} });
    const window = { window: "input-tokens", family: "openai", limit: 100_000, remaining: 50_000, remainingShare: 0.5 };
    await store.recordHeadroom("openai:a", [{ ...window, resetAt: clock.now() + 60_000, readAt: clock.now() - 1_000 }], clock.now());
    const run = hedgedRun(clock, detour, (context) => {
      // message_start with its usage, then silence: no content ever comes.
      context.upstreamProgress?.("bytes");
      context.upstreamUsage?.({ inputTokens: 1234 });
    });
    await clock.advanceAsync(5_400);
    expect(run.value).toMatchObject({ provider: "anthropic", result: "fallback answers" });
    await clock.advanceAsync(10);
    const aborted = events.find((event) => event.type === "attempt_finished" && event.outcome === "aborted");
    expect(aborted).toMatchObject({ provider: "openai", profileId: "openai:a", inputTokens: 1234 });
    expect(aborted).not.toHaveProperty("usageEstimated");
    // Booked to the profile's headroom as stated …
    const [charged] = (await store.headroomReadings(["openai:a"], clock.now()))["openai:a"] ?? [];
    expect(charged).toMatchObject({ window: "input-tokens", remaining: 50_000 - 1234 });
    // … and to its spend.
    const spent = (await detour.status()).agents[0]?.profiles.find((profile) => profile.id === "openai:a")?.spendUsd24h;
    expect(spent).toBeGreaterThan(0);
  });

  it("R-HG-1: a loser whose provider stated nothing is charged the request's estimate, marked as estimated", async () => {
    const { clock, detour, events } = await engine({ paces: {} });
    const run = hedgedRun(clock, detour, () => {});
    await clock.advanceAsync(5_400);
    expect(run.value?.provider).toBe("anthropic");
    await clock.advanceAsync(10);
    const aborted = events.find((event) => event.type === "attempt_finished" && event.outcome === "aborted");
    expect(aborted).toMatchObject({ provider: "openai", inputTokens: 40, usageEstimated: true });
  });
});

describe("when to hedge (R-HG-2)", () => {
  it("R-HG-2: after 20 first-token times of a model its hedge delay is 1.5 × their p95, at least 1 s; a configured afterMs wins", async () => {
    const { clock, detour, anthropic, openai } = await engine({ paces: { "gpt-4o-mini": { firstTokenMs: 800 } } });
    for (let index = 0; index < 20; index += 1) {
      const run = trackSettlement(clock, detour.run({ request }));
      await clock.advanceAsync(900);
      expect(run.value?.provider).toBe("openai");
    }
    expect(anthropic.calls).toEqual([]);
    const status = await detour.status();
    expect(status.firstToken).toEqual([
      expect.objectContaining({
        provider: "openai",
        model: "gpt-4o-mini",
        samples: 20,
        p95Ms: 800,
        deadlineMs: 15_000,
        hedgeAfterMs: 1_200,
      }),
    ]);
    // The model goes silent: raced after 1.2 s, not the cold 5 s.
    (openai as unknown as { paces: Record<string, Pace> }).paces["gpt-4o-mini"] = SILENT;
    const silent = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(1_500);
    expect(silent.value?.provider).toBe("anthropic");
    expect(silent.settledAfterMs).toBe(1_400);

    const configured = await engine({ paces: { "gpt-4o-mini": SILENT }, hedging: { afterMs: 2_500 } });
    const run = trackSettlement(configured.clock, configured.detour.run({ request }));
    await configured.clock.advanceAsync(2_800);
    expect(run.value?.provider).toBe("anthropic");
    expect(configured.anthropic.calls[0]!.at - configured.openai.calls[0]!.at).toBe(2_500);
  });
});

describe("hedge budget (R-HG-3)", () => {
  it("R-HG-3: with the budget spent the run waits as before, and the denial is counted", async () => {
    const { clock, detour, anthropic, events } = await engine({
      paces: { "gpt-4o-mini": { firstTokenMs: 7_000 } },
      fallbackPace: { firstTokenMs: 5_000 },
      hedging: { burst: 1, budgetPercent: 0 },
    });
    const first = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(7_100);
    expect(first.value?.provider).toBe("openai");
    expect(anthropic.calls).toHaveLength(1);
    const second = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(7_100);
    expect(second.value?.provider).toBe("openai");
    expect(anthropic.calls).toHaveLength(1);
    expect(hedges(events)).toEqual([
      ["openai", "started"],
      ["openai", "lost"],
      ["openai", "budget_denied"],
    ]);
  });
});

describe("silent routes (R-HG-4)", () => {
  it("R-HG-4: a route that loses two hedges without a byte is recorded once as a model-scoped timeout and then skipped", async () => {
    const { clock, detour, openai, store } = await engine({ paces: { "gpt-4o-mini": SILENT } });
    for (let index = 0; index < 2; index += 1) {
      const run = trackSettlement(clock, detour.run({ request }));
      await clock.advanceAsync(5_300);
      expect(run.value?.provider).toBe("anthropic");
    }
    const stats = await store.getUsageStats("openai:a");
    expect(stats?.failureCounts).toEqual({ timeout: 1 });
    expect(stats?.cooldownModel).toBe("gpt-4o-mini");
    // The primary may be probed once in its cooldown (R-FB-3, throttled by R-FB-4); after that it is skipped.
    const probe = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(5_300);
    expect(probe.value?.provider).toBe("anthropic");
    const callsBefore = openai.calls.length;
    const skipped = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(300);
    expect(skipped.value?.provider).toBe("anthropic");
    expect(skipped.settledAfterMs).toBe(200);
    expect(openai.calls).toHaveLength(callsBefore);
  });

  it("R-HG-4: a slow route that sent bytes before losing is not silent", async () => {
    const { clock, detour, store } = await engine({ paces: { "gpt-4o-mini": { firstTokenMs: NEVER } } });
    for (let index = 0; index < 3; index += 1) {
      const run = trackSettlement(clock, detour.run({ request }));
      await clock.advanceAsync(5_300);
      expect(run.value?.provider).toBe("anthropic");
    }
    expect((await store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
  });
});

describe("learned first-token deadlines (R-TT-1)", () => {
  it("R-TT-1: a model whose healthy first token takes 20 s gets 2 × its p99 once 50 are known, instead of being cut at 15 s", async () => {
    const { clock, detour, anthropic } = await engine({
      paces: { "gpt-4o-mini": { firstTokenMs: 12_000 } },
      hedging: { enabled: false },
    });
    for (let index = 0; index < 50; index += 1) {
      const run = trackSettlement(clock, detour.run({ request }));
      await clock.advanceAsync(12_100);
      expect(run.value?.provider).toBe("openai");
    }
    const [row] = (await detour.status()).firstToken ?? [];
    expect(row).toMatchObject({ samples: 50, p99Ms: 12_000, deadlineMs: 24_000, hedgeAfterMs: null });
    // Now 20 s: cut at 15 s before, answered now.
    (detour.providers.get("openai") as unknown as { paces: Record<string, Pace> }).paces["gpt-4o-mini"] = { firstTokenMs: 20_000 };
    const slow = trackSettlement(clock, detour.run({ request }));
    await clock.advanceAsync(20_100);
    expect(slow.value?.provider).toBe("openai");
    expect(anthropic.calls).toEqual([]);
  });

  it("R-TT-1: a configured ttftTimeoutSeconds wins over what was learned", async () => {
    const { clock, detour } = await engine({
      paces: { "gpt-4o-mini": { firstTokenMs: 12_000 } },
      hedging: { enabled: false },
      gateway: { ttftTimeoutSeconds: 13 },
    });
    for (let index = 0; index < 50; index += 1) {
      const run = trackSettlement(clock, detour.run({ request }));
      await clock.advanceAsync(12_100);
    }
    expect((await detour.status()).firstToken?.[0]).toMatchObject({ deadlineMs: 13_000 });
  });
});
