import pc from "picocolors";
import { describe, expect, it } from "vitest";
import type { DemoEvent } from "./demo-events.js";
import { LiveView } from "./render-live.js";

const NOW = 1_000_000;

function capture() {
  let text = "";
  return { stream: { write: (chunk: string) => (text += chunk) }, text: () => text };
}

const profiles = (alpha: object, now = NOW): DemoEvent => ({
  type: "profiles",
  now,
  profiles: [
    { id: "openai:alpha", provider: "openai", errorCount: 1, ...alpha } as never,
    { id: "anthropic:main", provider: "anthropic", errorCount: 0, lane: "ready" },
  ],
});

const STORY: DemoEvent[] = [
  profiles({ lane: "ready" }),
  { type: "request", request: 3, step: 2, session: "s", model: "openai/gpt-4o-mini", message: "Still there?", note: "rotates" },
  {
    type: "profile_failure",
    request: 3,
    profileId: "openai:alpha",
    reason: "rate_limit",
    lane: "blocked",
    until: NOW + 30_000,
    remainingMs: 30_000,
  },
  { type: "rotation", request: 3, provider: "openai", model: "gpt-4o-mini", from: "openai:alpha", to: "openai:beta", reason: "rate_limit" },
  {
    type: "route",
    request: 3,
    status: 200,
    model: "openai/gpt-4o-mini",
    profileId: "openai:beta",
    attemptCount: 2,
    attempts: [
      { provider: "openai", model: "gpt-4o-mini", profileId: "openai:alpha", outcome: "failed", reason: "rate_limit", status: 429 },
      { provider: "openai", model: "gpt-4o-mini", profileId: "openai:beta", outcome: "succeeded", reason: null, status: null },
    ],
    notice: null,
    probedPrimary: false,
    reply: "Hello",
    elapsedMs: 12,
  },
  profiles({ lane: "blocked", reason: "rate_limit", until: NOW + 30_000, remainingMs: 30_000 }),
  { type: "clock", skippedMs: 20_000, totalSkippedMs: 20_000, why: "time passes" },
];

describe("LiveView", () => {
  it("R-CL-2: shows each request's route: failed attempt, rotation, the answering model and profile, then the profiles' timers", () => {
    const out = capture();
    const view = new LiveView(out.stream, pc.createColors(false), { tty: false });
    for (const event of STORY) view.emit(event);
    const text = out.text();
    expect(text).toContain(`#3 "Still there?"`);
    expect(text).toContain("✗ openai:alpha openai/gpt-4o-mini 429 rate_limit → blocked 30s");
    expect(text).toContain("⟳ rotated openai:alpha → openai:beta (same model, rate_limit)");
    expect(text).toContain("✓ openai/gpt-4o-mini via openai:beta 12 ms");
    expect(text).toMatch(/openai:alpha\s+◔ blocked 30s \(rate_limit\)/);
  });

  it("R-HG-1: shows a hedge beside a silent attempt: when it started, that it won, and the silent attempt closed, not failed", () => {
    const out = capture();
    const view = new LiveView(out.stream, pc.createColors(false), { tty: false });
    const hedge = { request: 9, provider: "openai", model: "gpt-4o-mini", profileId: "openai:alpha", afterMs: 5_000 } as const;
    const events: DemoEvent[] = [
      { type: "request", request: 9, step: 8, session: "h", model: "openai/gpt-4o-mini", message: "Are you there?" },
      { type: "hedge", ...hedge, outcome: "started" },
      { type: "hedge", ...hedge, outcome: "won" },
      {
        type: "route",
        request: 9,
        status: 200,
        model: "anthropic/claude-sonnet-4-5",
        profileId: "anthropic:main",
        attemptCount: 2,
        attempts: [
          {
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            profileId: "anthropic:main",
            outcome: "succeeded",
            reason: null,
            status: null,
            hedge: true,
          },
          { provider: "openai", model: "gpt-4o-mini", profileId: "openai:alpha", outcome: "aborted", reason: null, status: null },
        ],
        notice: null,
        probedPrimary: false,
        reply: "Hi",
        elapsedMs: 5_040,
      },
    ];
    for (const event of events) view.emit(event);
    const text = out.text();
    expect(text).toContain("⇉ openai:alpha openai/gpt-4o-mini sent nothing for 5s → hedge started: the next route in the chain races it");
    expect(text).toContain("⇉ the hedge answered first; openai:alpha openai/gpt-4o-mini was closed without a failure on its record");
    expect(text).toContain("– openai:alpha openai/gpt-4o-mini sent nothing; closed, the hedge answered first");
    expect(text).not.toContain("✗ openai:alpha");
    expect(text).toContain("✓ anthropic/claude-sonnet-4-5 via anthropic:main 5040 ms · answered by the hedge");
  });

  it("R-PO-8: shows a fan-out: who waited for a seat, and per account its answers and the most in flight against its seats", () => {
    const out = capture();
    const view = new LiveView(out.stream, pc.createColors(false), { tty: false });
    view.emit({ type: "request", request: 4, step: 3, session: "sub-1", model: "openai/gpt-4o-mini", message: "Go" });
    view.emit({
      type: "route",
      request: 4,
      status: 200,
      model: "openai/gpt-4o-mini",
      profileId: "openai:beta",
      attemptCount: 1,
      attempts: [{ provider: "openai", model: "gpt-4o-mini", profileId: "openai:beta", outcome: "succeeded", reason: null, status: null }],
      notice: null,
      probedPrimary: false,
      waitedForSeat: true,
      reply: "ok",
      elapsedMs: 1_600,
    });
    view.emit({
      type: "seats",
      subAgents: 8,
      answered: 8,
      limit: 2,
      accounts: [
        { profileId: "openai:alpha", answered: 4, maxInFlight: 2, refused: 0 },
        { profileId: "anthropic:main", answered: 4, maxInFlight: 2, refused: 0 },
      ],
      waited: 2,
      passedOver: 9,
    });
    const text = out.text();
    expect(text).toContain("✓ openai/gpt-4o-mini via openai:beta 1600 ms · ⧗ waited in line for a seat");
    expect(text).toContain("8/8 sub-agents answered, spread over the accounts:");
    expect(text).toMatch(/openai:alpha\s+answered 4  at most 2\/2 in flight  refused by the provider: 0/);
    expect(text).toContain("» 2 waited in line for a free seat; full accounts passed over 9× before a call; 0 concurrency 429s upstream");
  });

  it("R-CL-1: colour and in-place timers only on a TTY; plain lines elsewhere", () => {
    const plain = capture();
    const plainView = new LiveView(plain.stream, pc.createColors(false), { tty: false });
    for (const event of STORY) plainView.emit(event);
    plainView.tick(NOW + 10_000);
    expect(plain.text()).not.toContain("\x1b[");

    const tty = capture();
    const ttyView = new LiveView(tty.stream, pc.createColors(true), { tty: true });
    for (const event of STORY) ttyView.emit(event);
    ttyView.tick(NOW + 10_000);
    // The two-line panel is rewritten in place with the timer counted down.
    expect(tty.text()).toContain("\x1b[2A");
    expect(tty.text()).toContain("blocked 20s (rate_limit)");
  });

  it("R-CL-2: reprints the profile panel only when a state changes, not for every request", () => {
    const out = capture();
    const view = new LiveView(out.stream, pc.createColors(false), { tty: false });
    view.emit(profiles({ lane: "ready" }));
    view.emit(profiles({ lane: "ready" }));
    expect(out.text().match(/profiles/g)).toHaveLength(1);
    view.emit(profiles({ lane: "cooldown", reason: "overloaded", until: NOW + 5_000, remainingMs: 5_000 }));
    expect(out.text().match(/profiles/g)).toHaveLength(2);
  });

  it("R-CL-2: opens by saying what Detour is and what the symbols mean, before the first step", () => {
    const out = capture();
    const view = new LiveView(out.stream, pc.createColors(false), { tty: false });
    view.emit({
      type: "demo_started",
      fast: true,
      workspace: "/tmp/detour-demo-x",
      gateway: "http://127.0.0.1:1",
      mocks: { openai: "http://127.0.0.1:2", anthropic: "http://127.0.0.1:3" },
      session: "demo-chat",
      primaryModel: "openai/gpt-4o-mini",
      fallbackModel: "anthropic/claude-sonnet-4-5",
      profiles: [
        { id: "openai:alpha", provider: "openai" },
        { id: "openai:beta", provider: "openai" },
        { id: "anthropic:main", provider: "anthropic" },
      ],
    });
    view.emit({ type: "notice", request: 6, kind: "fallback", text: "↪️ Model Fallback: b (selected a; overloaded)" });
    const text = out.text();
    expect(text).toMatch(/^Detour demo\nDetour sits between your app and its LLM providers\./);
    expect(text).toContain("keys openai:alpha, openai:beta (tried in this order)");
    expect(text).toMatch(/legend +✓ answer +✗ failed attempt +⟳ key rotation/);
    expect(text).toContain("notice to the user: ↪️ Model Fallback: b (selected a; overloaded)");
  });

  it("R-PO-7: says in plain words when a nearly spent key is passed over before its limit, and which session moved", () => {
    const out = capture();
    const view = new LiveView(out.stream, pc.createColors(false), { tty: false });
    const events: DemoEvent[] = [
      {
        type: "demo_started",
        fast: true,
        workspace: "/tmp/x",
        gateway: "http://127.0.0.1:1",
        mocks: { openai: "http://127.0.0.1:2", anthropic: "http://127.0.0.1:3" },
        session: "demo-chat",
        primaryModel: "openai/gpt-4o-mini",
        fallbackModel: "anthropic/claude-sonnet-4-5",
        profiles: [{ id: "openai:alpha", provider: "openai" }],
      },
      { type: "budget", provider: "openai", profileId: "openai:alpha", active: true, description: "openai:alpha has used 96 of 100" },
      profiles({
        lane: "ready",
        headroom: { remainingShare: 0.03, window: "requests", resetAt: NOW + 59_000, resetsInMs: 59_000, nearlySpent: true },
      }),
      {
        type: "request",
        request: 4,
        step: 2,
        session: "demo-second-chat",
        model: "openai/gpt-4o-mini",
        message: "Go on",
        note: "moved early",
      },
      {
        type: "headroom_passed_over",
        request: 4,
        profileId: "openai:alpha",
        toProfileId: "openai:beta",
        window: "requests",
        remainingShare: 0.03,
        why: "below_min_remaining",
        resetsInMs: 59_000,
        pinMoved: true,
      },
      {
        type: "route",
        request: 4,
        status: 200,
        model: "openai/gpt-4o-mini",
        profileId: "openai:beta",
        attemptCount: 1,
        attempts: [
          { provider: "openai", model: "gpt-4o-mini", profileId: "openai:beta", outcome: "succeeded", reason: null, status: null },
        ],
        notice: null,
        probedPrimary: false,
        reply: "ok",
        elapsedMs: 3,
      },
      {
        type: "budget",
        provider: "openai",
        profileId: "openai:alpha",
        active: false,
        description: "openai:alpha has room again",
        rejected: 0,
      },
    ];
    for (const event of events) view.emit(event);
    const text = out.text();
    expect(text).toContain("↷ moved before a limit");
    expect(text).toContain("⚡ budget openai:alpha has used 96 of 100");
    expect(text).toMatch(/openai:alpha\s+◔ ready, nearly spent \(3% of requests left, resets in 59s\)/);
    expect(text).toContain(`#4 (session demo-second-chat) "Go on"`);
    const passedOver = text.indexOf(
      "↷ passed over openai:alpha: nearly spent (3% of its requests window left, resets in 59s) → the session moves to openai:beta before this turn",
    );
    expect(passedOver).toBeGreaterThan(-1);
    // Told before the answer it led to, since it happened before any call.
    expect(passedOver).toBeLessThan(text.indexOf("✓ openai/gpt-4o-mini via openai:beta"));
    expect(text).toContain("✓ lifted openai:alpha has room again");
  });
});
