/**
 * Plays the storyline against the running demo stack: injects faults and budgets into the OpenAI mock,
 * skips the demo clock, sends each chat turn through the gateway over HTTP, and reports what came back —
 * the route from the response headers, the attempts, rotations, profiles passed over for headroom and
 * profile failures from the engine's events, and the profiles' state from `GET /status` — as demo events.
 */
import type { MockBudgetsInput, MockProvider, MockRuleInput } from "../testing/mock-provider/index.js";
import type { DemoClock } from "./demo-clock.js";
import type { DemoSink, ProfilesEvent, RouteEvent, SeatAccountView } from "./demo-events.js";
import { DEMO_PROFILE_LIST, DEMO_SEATS_PER_ACCOUNT, DEMO_SESSION, PRIMARY_MODEL, profileIdForKey } from "./demo-setup.js";
import type { GatewayClient } from "./gateway-client.js";
import { skipTime, type Pacing } from "./pacing.js";
import { profileState } from "./profile-states.js";
import type { RequestTracer } from "./request-trace.js";
import type { BudgetSpec, FaultSpec, StoryAction, StoryStep } from "./storyline.js";

/** R-NT-1 wording of the notice that ends a fallback. */
const CLEARED_NOTICE_PREFIX = "↪️ Model Fallback cleared:";

export interface StorylineContext {
  openaiMock: MockProvider;
  /** Absent: faults for the Anthropic mock are not applied (storylines that never inject one). */
  anthropicMock?: MockProvider;
  client: GatewayClient;
  tracer: RequestTracer;
  clock: DemoClock;
  sink: DemoSink;
  pacing: Pacing;
  signal: AbortSignal;
}

class StorylinePlayer {
  readonly #context: StorylineContext;
  readonly #faults = new Map<string, FaultSpec>();
  readonly #budgets = new Map<string, BudgetSpec>();
  #requests = 0;
  #step = 0;
  /** The main session runs on an auto fallback (between the fallback and the cleared notice). */
  #onFallback = false;

  constructor(context: StorylineContext) {
    this.#context = context;
  }

  async play(storyline: readonly StoryStep[]): Promise<void> {
    await this.#emitProfiles();
    for (const step of storyline) {
      this.#step += 1;
      this.#context.sink.emit({
        type: "step",
        step: this.#step,
        of: storyline.length,
        id: step.id,
        title: step.title,
        detail: step.detail,
      });
      await this.#pause(this.#context.pacing.afterStepMs);
      for (const action of step.actions) await this.#run(action);
    }
  }

  async #run(action: StoryAction): Promise<void> {
    const { sink, clock, pacing, signal } = this.#context;
    switch (action.kind) {
      case "inject":
        this.#faults.set(action.fault.name, action.fault);
        this.#applyFaults();
        sink.emit({ type: "fault", ...faultFields(action.fault), active: true, description: action.fault.description });
        return;
      case "clear":
        this.#faults.delete(action.fault.name);
        this.#applyFaults();
        sink.emit({ type: "fault", ...faultFields(action.fault), active: false, description: action.description });
        return;
      case "set-budget":
        this.#budgets.set(action.budget.name, action.budget);
        this.#applyFaults();
        sink.emit({ type: "budget", ...budgetFields(action.budget), active: true, description: action.budget.description });
        return;
      case "lift-budget": {
        // Counted before the mock forgets the budget's windows: did the key ever have to answer 429?
        const rejected = this.#context.openaiMock.budgets()[action.budget.key]?.rejected ?? 0;
        this.#budgets.delete(action.budget.name);
        this.#applyFaults();
        sink.emit({ type: "budget", ...budgetFields(action.budget), active: false, description: action.description, rejected });
        return;
      }
      case "skip-time":
        sink.emit({ type: "clock", skippedMs: action.ms, totalSkippedMs: clock.skippedMs + action.ms, why: action.why });
        await skipTime(clock, action.ms, pacing, (now) => sink.tick?.(now), signal);
        await this.#emitProfiles();
        return;
      case "fan-out":
        await this.#fanOut(action);
        await this.#emitProfiles();
        await this.#pause(pacing.afterRequestMs);
        return;
      case "chat":
        await this.#chat(action.message, action.note, action.session ?? DEMO_SESSION, action.stream === true);
        await this.#emitProfiles();
        await this.#pause(pacing.afterRequestMs);
        return;
    }
  }

  /**
   * The mock answers by the first matching rule; key-specific faults come before provider-wide ones. Budgets
   * ride along (a new scenario starts their windows afresh, so a budget's step changes no fault meanwhile).
   */
  #applyFaults(): void {
    const rulesOf = (provider: FaultSpec["provider"]): MockRuleInput[] =>
      [...this.#faults.values()]
        .filter((fault) => fault.provider === provider)
        .sort((a, b) => Number(a.profileId === undefined) - Number(b.profileId === undefined))
        .map((fault) => fault.rule);
    // Budgets are OpenAI keys' (the headroom step); the Anthropic mock gets faults only.
    const budgets: MockBudgetsInput = Object.fromEntries([...this.#budgets.values()].map((spec) => [spec.key, spec.budget]));
    this.#context.openaiMock.setScenario({ rules: rulesOf("openai"), budgets });
    this.#context.anthropicMock?.setScenario(rulesOf("anthropic"));
  }

  async #chat(message: string, note: string, session: string, stream: boolean): Promise<void> {
    const { client, tracer, sink, signal } = this.#context;
    this.#requests += 1;
    const request = this.#requests;
    sink.emit({ type: "request", request, step: this.#step, session, model: PRIMARY_MODEL, message, note });
    const startedAt = performance.now();
    tracer.begin();
    let trace;
    let reply;
    try {
      const turn = { sessionKey: session, model: PRIMARY_MODEL, message, signal };
      if (stream) {
        const streamed = await client.chatStream(turn);
        // A stream's run settles just after its last frame was sent: wait for it to be traced.
        await tracer.settled();
        reply = streamed.streamError !== undefined ? { ...streamed, status: 502, text: streamed.streamError } : streamed;
      } else {
        reply = await client.chat(turn);
      }
    } finally {
      trace = tracer.end();
    }
    const answered = trace.attempts.findLast((attempt) => attempt.outcome === "succeeded");
    // The headers of a stream name who started the answer; the route shows who finished it.
    const route: RouteEvent = {
      type: "route",
      request,
      status: reply.status,
      // A stream's headers name the model that started it; a continued one was finished by another.
      model: stream && answered ? `${answered.provider}/${answered.model}` : (reply.model ?? null),
      profileId: answered?.profileId ?? null,
      attemptCount: reply.attempts ?? null,
      attempts: trace.attempts,
      notice: reply.notice ?? null,
      probedPrimary:
        session === DEMO_SESSION &&
        this.#onFallback &&
        trace.attempts.some((attempt) => `${attempt.provider}/${attempt.model}` === PRIMARY_MODEL),
      ...(stream
        ? { continued: trace.attempts.some((attempt) => attempt.continuation !== undefined && attempt.outcome === "succeeded") }
        : {}),
      reply: reply.text,
      elapsedMs: Math.round(performance.now() - startedAt),
    };
    const now = this.#context.clock.now();
    for (const failure of trace.failures) {
      const state = profileState({ id: failure.profileId, provider: failure.provider, usageStats: failure.stats }, now);
      sink.emit({
        type: "profile_failure",
        request,
        profileId: failure.profileId,
        reason: failure.reason,
        lane: state.lane,
        until: state.until ?? null,
        remainingMs: state.remainingMs ?? null,
      });
    }
    for (const passOver of trace.passedOver) {
      sink.emit({
        type: "headroom_passed_over",
        request,
        profileId: passOver.profileId,
        toProfileId: passOver.toProfileId,
        window: passOver.window,
        remainingShare: passOver.remainingShare,
        why: passOver.why,
        resetsInMs: Math.max(0, passOver.resetAt - now),
        pinMoved: passOver.pinMoved,
      });
    }
    for (const rotation of trace.rotations) sink.emit({ type: "rotation", request, ...rotation });
    for (const hedge of trace.hedges) sink.emit({ type: "hedge", request, ...hedge });
    sink.emit(route);
    if (reply.notice !== undefined) {
      const kind = reply.notice.startsWith(CLEARED_NOTICE_PREFIX) ? "cleared" : "fallback";
      if (session === DEMO_SESSION) this.#onFallback = kind === "fallback";
      sink.emit({ type: "notice", request, kind, text: reply.notice });
    }
  }

  /**
   * Sends every sub-agent's turn at once and reports each route once all have answered, then how they were
   * spread: per account the answers and the most in flight at once (counted at the mock, where a request over
   * the key's seats would have been refused), who waited in line, and how often a full account was passed over.
   */
  async #fanOut(action: Extract<StoryAction, { kind: "fan-out" }>): Promise<void> {
    const { client, tracer, sink, signal } = this.#context;
    const subAgents = Array.from({ length: action.count }, (_, index) => {
      this.#requests += 1;
      return { request: this.#requests, session: `${action.sessionPrefix}-${index + 1}` };
    });
    subAgents.forEach((agent, index) =>
      sink.emit({
        type: "request",
        request: agent.request,
        step: this.#step,
        session: agent.session,
        model: PRIMARY_MODEL,
        message: action.message,
        ...(index === 0 ? { note: action.note } : {}),
      }),
    );
    tracer.begin();
    let trace;
    let replies;
    try {
      replies = await Promise.all(
        subAgents.map(async (agent) => {
          const startedAt = performance.now();
          const reply = await client.chat({ sessionKey: agent.session, model: PRIMARY_MODEL, message: action.message, signal });
          return { reply, elapsedMs: Math.round(performance.now() - startedAt) };
        }),
      );
    } finally {
      trace = tracer.end();
    }
    const runs = [...trace.runs.values()];
    const answeredBy = new Map<string, number>();
    let answered = 0;
    subAgents.forEach((agent, index) => {
      const { reply, elapsedMs } = replies[index]!;
      const ownRuns = runs.filter((run) => run.sessionId === agent.session);
      const attempts = ownRuns.flatMap((run) => run.attempts);
      const by = attempts.findLast((attempt) => attempt.outcome === "succeeded");
      if (reply.status === 200) {
        answered += 1;
        if (by?.profileId) answeredBy.set(by.profileId, (answeredBy.get(by.profileId) ?? 0) + 1);
      }
      sink.emit({
        type: "route",
        request: agent.request,
        status: reply.status,
        model: reply.model ?? null,
        profileId: by?.profileId ?? null,
        attemptCount: reply.attempts ?? null,
        attempts,
        notice: reply.notice ?? null,
        probedPrimary: false,
        waitedForSeat: ownRuns.some((run) => run.waitedForSeat),
        reply: reply.text,
        elapsedMs,
      });
      if (reply.notice !== undefined) {
        sink.emit({
          type: "notice",
          request: agent.request,
          kind: reply.notice.startsWith(CLEARED_NOTICE_PREFIX) ? "cleared" : "fallback",
          text: reply.notice,
        });
      }
    });
    const inFlight = new Map<string, { maxInFlight: number; refused: number }>();
    for (const mock of [this.#context.openaiMock, this.#context.anthropicMock]) {
      for (const [key, seen] of Object.entries(mock?.concurrency() ?? {})) {
        const profileId = profileIdForKey(key);
        if (profileId !== undefined) inFlight.set(profileId, { maxInFlight: seen.maxInFlight, refused: seen.rejected });
      }
    }
    const accounts: SeatAccountView[] = DEMO_PROFILE_LIST.map((profile) => ({
      profileId: profile.id,
      answered: answeredBy.get(profile.id) ?? 0,
      maxInFlight: inFlight.get(profile.id)?.maxInFlight ?? 0,
      refused: inFlight.get(profile.id)?.refused ?? 0,
    }));
    sink.emit({
      type: "seats",
      subAgents: action.count,
      answered,
      limit: DEMO_SEATS_PER_ACCOUNT,
      accounts,
      waited: runs.filter((run) => run.waitedForSeat).length,
      passedOver: trace.seatPassOvers,
    });
  }

  async #emitProfiles(): Promise<ProfilesEvent> {
    const status = await this.#context.client.status(this.#context.signal);
    // Timers are read against the demo clock, the same clock the gateway decides with.
    const now = this.#context.clock.now();
    const event: ProfilesEvent = {
      type: "profiles",
      now,
      profiles: status.profiles
        .map((profile) =>
          profileState(
            {
              id: profile.id,
              provider: profile.provider,
              usageStats: profile.usageStats,
              ...(profile.headroom ? { headroom: profile.headroom } : {}),
            },
            now,
          ),
        )
        .sort((a, b) => demoOrder(a.id) - demoOrder(b.id)),
    };
    this.#context.sink.emit(event);
    return event;
  }

  #pause(ms: number): Promise<void> {
    return this.#context.clock.sleep(ms, this.#context.signal);
  }
}

/** Profiles are listed as the demo introduced them (primary keys first); unknown ones last. */
function demoOrder(profileId: string): number {
  const index = DEMO_PROFILE_LIST.findIndex((profile) => profile.id === profileId);
  return index === -1 ? DEMO_PROFILE_LIST.length : index;
}

function budgetFields(budget: BudgetSpec) {
  return { provider: budget.provider, profileId: budget.profileId };
}

function faultFields(fault: FaultSpec) {
  return { provider: fault.provider, fault: fault.fault, ...(fault.profileId !== undefined ? { profileId: fault.profileId } : {}) };
}

export async function driveStoryline(context: StorylineContext, storyline: readonly StoryStep[]): Promise<void> {
  await new StorylinePlayer(context).play(storyline);
}
