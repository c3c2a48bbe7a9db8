/**
 * What-if replay (R-OB-5): runs a recorded trace through one config with the engine the gateway uses —
 * `createDetour` with a memory store, a replay clock that starts where the recording started and the
 * shortest jitter — and an upstream rebuilt from the recording (upstream-model.ts). Every recorded run is started at
 * its recorded moment, with its session and requested model; time moves only from one pending timer to the
 * next, so ten thousand runs over a day replay in seconds, and the same inputs give the same report.
 */
import type { DetourConfig } from "../../config/index.js";
import { DetourError, ERROR_CODES, FailoverError } from "../../core/errors.js";
import type { RunTraceV1, TraceWaitKind } from "../../core/run-trace.js";
import { DEFAULT_MODEL_FAILOVER } from "../../config/defaults.js";
import { silentLogger, type DetourEvent } from "../../ports/events.js";
import { MAX_STATED_WAIT_JITTER_MS, STATED_WAIT_JITTER_SHARE } from "../../runner/retry-decisions.js";
import type { AttemptContext } from "../../runner/attempt.js";
import { RunTraceBuilder } from "../../runner/run-trace-builder.js";
import { MemoryStateStore } from "../../state/memory/memory-store.js";
import { createDetour } from "../create-detour.js";
import type { RunWithOptions } from "../detour-api.js";
import { ENV_CREDENTIAL_VARIABLES } from "../profile-source.js";
import { describeModel } from "../../catalogue/model-catalogue.js";
import { costOfUsage } from "../../catalogue/prices.js";
import { modelDeclaration } from "../../config/index.js";
import { UpstreamModel, type RunUsage, type UpstreamBehaviour, type UpstreamModelOptions } from "./upstream-model.js";
import { ReplayClock, SHORTEST_JITTER } from "./replay-clock.js";
import { summarizeRuns, type ReplayConfigReport } from "./replay-report.js";

/** Turns of the event loop a replay may spend with runs pending and no timer due before it gives up. */
const MAX_IDLE_TURNS = 1_000;
/** Stands in for every key: the replay calls no provider, but profiles need a credential to be tried. */
const REPLAY_KEY = "replay-not-a-key";

export class ReplayStalledError extends DetourError {
  readonly code = ERROR_CODES.replayStalled;
  constructor(pending: number) {
    super(
      `The replay stopped with ${pending} run(s) still waiting on something other than its clock; this is a bug in Detour's replay, please report it with the trace.`,
    );
  }
}

export interface ReplayInput {
  /** The name the report shows (a file name). */
  name: string;
  config: DetourConfig;
  traces: readonly RunTraceV1[];
}

export interface ReplayResult {
  report: ReplayConfigReport;
  /** The replayed runs as traces (format v1), in the order the recorded runs started; `runId` is the recorded run's. */
  traces: RunTraceV1[];
}

/** Recorded runs oldest first (ties by run id, so that the order never depends on how the file was written). */
export function orderedRuns(traces: readonly RunTraceV1[]): RunTraceV1[] {
  return [...traces].sort((a, b) => a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
}

function replayEnv(config: DetourConfig, traces: readonly RunTraceV1[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const profile of Object.values(config.auth.profiles)) {
    if (profile.keyRef?.env !== undefined) env[profile.keyRef.env] = REPLAY_KEY;
  }
  const providers = new Set<string>(Object.keys(config.models.providers));
  for (const trace of traces) for (const attempt of trace.attempts) providers.add(attempt.provider);
  const { primary, fallbacks } = config.agents.defaults.model;
  for (const ref of [primary, ...fallbacks]) if (ref !== undefined) providers.add(ref.split("/")[0]!);
  for (const { variable, provider } of ENV_CREDENTIAL_VARIABLES) if (providers.has(provider)) env[variable] = REPLAY_KEY;
  return env;
}

/**
 * Stored keys stand-ins: configured profiles whose key is not in an environment variable (it was stored with
 * `detour auth add`), and profiles the recording used that neither the config nor the environment names.
 */
async function seedStoredProfiles(store: MemoryStateStore, config: DetourConfig, traces: readonly RunTraceV1[]): Promise<void> {
  const seeded = new Set<string>();
  for (const [id, profile] of Object.entries(config.auth.profiles)) {
    if (profile.keyRef?.env !== undefined) continue;
    seeded.add(id);
    const credential =
      profile.mode === "api_key"
        ? { type: "api_key" as const, provider: profile.provider, key: REPLAY_KEY }
        : { type: "token" as const, provider: profile.provider, token: REPLAY_KEY };
    await store.upsertProfile({ id, credential });
  }
  for (const trace of traces) {
    for (const attempt of trace.attempts) {
      const id = attempt.profileId;
      if (id === null || seeded.has(id) || id in config.auth.profiles || id === `${attempt.provider}:env`) continue;
      seeded.add(id);
      await store.upsertProfile({ id, credential: { type: "api_key", provider: attempt.provider, key: REPLAY_KEY } });
    }
  }
}

/** The waits whose length the runner draws (or computes from the clock), by event, as traces name them. */
const WAIT_KINDS: ReadonlyMap<string, TraceWaitKind> = new Map<string, TraceWaitKind>([
  ["short_wait", "short_wait"],
  ["cooldown_wait", "cooldown_wait"],
  ["timeout_retry_scheduled", "timeout_retry"],
  ["server_error_retry_scheduled", "server_error_retry"],
]);
/** A recording's waits were computed on a real clock: a few milliseconds either way are the same wait. */
const WAIT_CLOCK_NOISE_MS = 50;

function backoffRange(config: DetourConfig): [number, number] {
  const [first, second] = config.agents.defaults.modelFailover.retryBackoffMs;
  const low = Math.min(first ?? DEFAULT_MODEL_FAILOVER.retryBackoffMs[0], second ?? DEFAULT_MODEL_FAILOVER.retryBackoffMs[1]);
  const high = Math.max(first ?? DEFAULT_MODEL_FAILOVER.retryBackoffMs[0], second ?? DEFAULT_MODEL_FAILOVER.retryBackoffMs[1]);
  return [low, high];
}

function flushTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What an answer of this model costs under the config's prices (else the catalogue's), as the gateway prices it. */
export function configPricing(config: DetourConfig): NonNullable<UpstreamModelOptions["costOf"]> {
  return (provider, model, usage) => {
    const prices = describeModel(provider, model, modelDeclaration(config, provider, model)).prices;
    return prices ? costOfUsage(usage, prices) : undefined;
  };
}

/** The tokens of the run's answer (or its request's estimate with no answer), to price a fallback's answer. */
function runUsage(trace: RunTraceV1): RunUsage | undefined {
  const answer = trace.attempts.find((attempt) => attempt.outcome === "succeeded" && attempt.inputTokens !== null);
  if (answer) return { inputTokens: answer.inputTokens ?? 0, outputTokens: answer.outputTokens ?? 0 };
  const estimate = trace.request.estimatedInputTokens;
  return estimate !== null ? { inputTokens: estimate, outputTokens: 0 } : undefined;
}

export async function replayTraces(input: ReplayInput, upstream?: UpstreamModel): Promise<ReplayResult> {
  upstream ??= new UpstreamModel(input.traces, { costOf: configPricing(input.config) });
  const runs = orderedRuns(input.traces);
  const clock = new ReplayClock(runs[0]?.startedAt ?? 0);
  const store = new MemoryStateStore({ now: () => clock.now() });
  await seedStoredProfiles(store, input.config, runs);
  const detour = await createDetour({
    config: input.config,
    store,
    clock,
    random: SHORTEST_JITTER,
    logger: silentLogger,
    env: replayEnv(input.config, runs),
    discoverEnvCredentials: true,
    providers: [],
    // The replay keeps its own traces of the replayed runs; the agent's trace store would only hold copies.
    recordTraces: false,
  });
  const builders = new Map<string, RunTraceBuilder>();
  const results: (RunTraceV1 | undefined)[] = new Array(runs.length);
  const stop = detour.on("*", (event) => {
    if (!("runId" in event) || event.runId === null) return;
    let builder = builders.get(event.runId);
    if (!builder) {
      if (event.type !== "run_started" || starting === undefined) return;
      builder = new RunTraceBuilder();
      builders.set(event.runId, builder);
      starting.runId = event.runId;
      waitsSeen.set(event.runId, { recorded: starting.recorded, counts: new Map() });
    }
    builder.observe(event, clock.now());
    if (WAIT_KINDS.has(event.type)) waitAsRecorded(event, builder.runId);
  });
  /** Replayed run id → the recorded run and how many waits of each kind it made so far. */
  const waitsSeen = new Map<string, { recorded: RunTraceV1; counts: Map<string, number> }>();
  const [backoffLow, backoffHigh] = backoffRange(input.config);
  /**
   * The k-th wait of a kind in a replayed run is the recording's k-th wait of that kind in the same run, when
   * its length is one the config could have drawn: then it lasts as long as it did (the same jitter).
   */
  const waitAsRecorded = (event: DetourEvent, runId: string | undefined): void => {
    const seen = runId !== undefined ? waitsSeen.get(runId) : undefined;
    if (!seen) return;
    const kind = WAIT_KINDS.get(event.type)!;
    const index = seen.counts.get(kind) ?? 0;
    seen.counts.set(kind, index + 1);
    const requestedMs = "waitMs" in event ? event.waitMs : "delayMs" in event ? event.delayMs : undefined;
    const recordedMs = seen.recorded.waits.filter((wait) => wait.kind === kind)[index]?.waitMs;
    if (requestedMs === undefined || recordedMs === undefined) return;
    const plausible =
      kind === "timeout_retry" || kind === "server_error_retry"
        ? recordedMs >= backoffLow && recordedMs <= backoffHigh
        : recordedMs >= requestedMs - WAIT_CLOCK_NOISE_MS &&
          recordedMs <= requestedMs + Math.min(MAX_STATED_WAIT_JITTER_MS, requestedMs * STATED_WAIT_JITTER_SHARE) + WAIT_CLOCK_NOISE_MS;
    if (plausible) clock.substituteNextSleep(requestedMs, Math.max(0, recordedMs));
  };
  /** The run being started: its `run_started` comes before the replay starts the next one. */
  let starting: { runId?: string; recorded: RunTraceV1 } | undefined;
  const continuations = input.config.gateway.streamContinuations;
  const ttftMs = input.config.gateway.ttftTimeoutSeconds !== undefined ? input.config.gateway.ttftTimeoutSeconds * 1000 : undefined;
  let pending = 0;

  const startRun = (recorded: RunTraceV1, index: number): void => {
    pending += 1;
    const ordinals = new Map<string, number>();
    const costs: { costUsd: number | null; inputTokens: number | null; outputTokens: number | null }[] = [];
    const identity: { runId?: string; recorded: RunTraceV1 } = { recorded };
    starting = identity;
    // Callers that do not state the request's facts still show a stream by its committed attempts.
    const streamed = recorded.request.stream === true || recorded.attempts.some((attempt) => attempt.committed);
    const usage = runUsage(recorded);
    const controller = recorded.outcome === "aborted" ? new AbortController() : undefined;
    // The client that left in the recording leaves at the same moment of the replayed run.
    const cancelAbort = controller ? clock.setTimer(recorded.durationMs, () => controller.abort()) : undefined;
    const attempt = async (context: AttemptContext): Promise<void> => {
      const key = `${context.provider}\u0000${context.model}\u0000${context.profileId ?? ""}`;
      const ordinal = ordinals.get(key) ?? 0;
      ordinals.set(key, ordinal + 1);
      const slot = costs.length;
      costs.push({ costUsd: null, inputTokens: null, outputTokens: null });
      const behaviour = upstream.behaviour(
        {
          runId: recorded.runId,
          provider: context.provider,
          model: context.model,
          profileId: context.profileId ?? null,
          ordinal,
          at: clock.now(),
        },
        streamed,
        usage,
      );
      await play(behaviour, context, clock, (facts) => (costs[slot] = facts));
    };
    detour
      .runWith({
        ...selectionOf(recorded),
        ...(recorded.sessionHash !== null ? { sessionKey: recorded.sessionHash } : {}),
        ...(controller ? { signal: controller.signal } : {}),
        ...(streamed && ttftMs !== undefined ? { attemptTimeoutMs: ttftMs } : {}),
        ...(streamed && continuations > 0 ? { continuations: { max: continuations, canContinue: () => true } } : {}),
        // The replayed upstream reports its first content as the gateway's lanes do, so a slow or silent
        // attempt is raced (R-HG-1) exactly when the config under test would race it.
        reportsProgress: true,
        attempt,
      })
      .catch(() => undefined)
      .finally(() => {
        cancelAbort?.();
        pending -= 1;
        const builder = identity.runId !== undefined ? builders.get(identity.runId) : undefined;
        const trace = builder?.finish();
        if (trace) {
          builders.delete(trace.runId);
          waitsSeen.delete(trace.runId);
          trace.attempts.forEach((attemptTrace, position) => {
            const facts = costs[position];
            if (!facts) return;
            attemptTrace.costUsd = facts.costUsd;
            attemptTrace.inputTokens = facts.inputTokens;
            attemptTrace.outputTokens = facts.outputTokens;
          });
          trace.costUsd = trace.attempts.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
          results[index] = { ...trace, runId: recorded.runId, sessionHash: recorded.sessionHash };
        }
      });
  };

  // Every replayed failure is an Error; their stack traces are never read and cost a third of a replay.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // Each step lets every queued reaction run (one turn of the event loop) before time moves on, so that
    // code woken by a timer reaches its next wait first. A run started reaches its `run_started` (store reads
    // only) within the turn after it starts, so that event is known to be its own.
    for (let index = 0; index < runs.length; index += 1) {
      const recorded = runs[index]!;
      await flushTurn();
      starting = undefined;
      while (clock.fireNext(recorded.startedAt)) await flushTurn();
      clock.moveTo(recorded.startedAt);
      startRun(recorded, index);
    }
    await flushTurn();
    starting = undefined;
    let idle = 0;
    while (pending > 0) {
      if (clock.fireNext()) {
        idle = 0;
        await flushTurn();
        continue;
      }
      await flushTurn();
      if ((idle += 1) > MAX_IDLE_TURNS) throw new ReplayStalledError(pending);
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    stop();
    await detour.close();
  }
  const traces = results.filter((trace): trace is RunTraceV1 => trace !== undefined);
  return { report: summarizeRuns(input.name, traces), traces };
}

/**
 * How the recorded run chose its model, asked again of the replayed config: a model named by the request
 * (or a user's pin, strict) is named again; a run that took the config's own choice or its session's fallback
 * asks for none, so the replayed config and session choose; cron and heartbeat runs stay what they were.
 */
function selectionOf(recorded: RunTraceV1): Pick<RunWithOptions<void>, "model" | "strictModel" | "source" | "agentId"> {
  const agent = recorded.agentId !== "main" ? { agentId: recorded.agentId } : {};
  const model = recorded.request.requestedModel;
  switch (recorded.selectionSource) {
    case "configured_default":
    case "agent_primary":
    // The session's fallback state (rebuilt by the replayed runs before) chooses again, as it did then.
    case "auto_fallback_override":
      return agent;
    case "user_session_override":
    case "legacy_override":
      return { ...agent, model, strictModel: true };
    case "cron_payload":
      return { ...agent, model, source: "cron" };
    case "heartbeat":
      return { ...agent, source: "heartbeat" };
    default:
      return { ...agent, model };
  }
}

/** Plays one upstream behaviour against an attempt: waits on the fake clock, commits, answers or fails. */
async function play(
  behaviour: UpstreamBehaviour,
  context: AttemptContext,
  clock: ReplayClock,
  report: (facts: { costUsd: number | null; inputTokens: number | null; outputTokens: number | null }) => void,
): Promise<void> {
  if (behaviour.kind === "hang") {
    await new Promise<never>((_, reject) => {
      const fail = () => reject(context.signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
      if (context.signal.aborted) fail();
      else context.signal.addEventListener("abort", fail, { once: true });
    });
    return;
  }
  await clock.sleep(behaviour.startDelayMs + behaviour.latencyMs, context.signal);
  // An answer's first content arrives here (a non-streamed request is streamed upstream too, R-ST-6); a
  // failure sends none.
  if (behaviour.kind === "answer") context.upstreamProgress?.("content");
  if (behaviour.committed) {
    await context.commit();
    await clock.sleep(behaviour.streamMs, context.signal);
  }
  if (behaviour.kind === "answer") {
    report({ costUsd: behaviour.costUsd, inputTokens: behaviour.inputTokens, outputTokens: behaviour.outputTokens });
    if (behaviour.refused) context.refused?.();
    return;
  }
  throw new FailoverError(`replayed upstream failure (${behaviour.reason})`, {
    reason: behaviour.reason,
    provider: context.provider,
    model: context.model,
    ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
    ...(behaviour.status !== null ? { status: behaviour.status } : {}),
    ...(behaviour.code !== null ? { code: behaviour.code } : {}),
    ...(behaviour.resetAt !== null ? { resetAt: behaviour.resetAt } : {}),
  });
}
