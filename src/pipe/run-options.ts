/**
 * What every chat run and each of its attempts is built from, whichever wire the client and the candidate
 * speak: the runner's settings, the providers by id, the routing options a caller hands the runner unchanged,
 * and the call context one upstream call gets.
 */
import type { Clock } from "../ports/clock.js";
import type { Provider, ProviderCallContext } from "../ports/provider.js";
import type { AttemptContext } from "../runner/attempt.js";
import type { FirstTokenSettings } from "./first-token-timeout.js";
import type { HeadroomRecorder } from "./headroom-recorder.js";
import type { ProviderPin } from "./provider-pin.js";
import type { ContinuationSettings } from "./stream-continuation.js";
import type { StreamRefusals } from "./streamed-answer.js";

/** `ttftTimeoutSeconds`: `gateway.ttftTimeoutSeconds` (R-ST-1); absent, it follows each candidate (R-ST-6). */
export interface ChatRunnerSettings extends FirstTokenSettings {
  clock: Clock;
  /** `gateway.streamStallSeconds` (R-ST-1, R-ST-2). */
  streamStallSeconds: number;
  /** R-PO-7: reads every upstream response's rate-limit headers into the store. */
  headroom?: HeadroomRecorder;
  /** R-ST-4: continuing cut streams; absent = a stream cut after its commit ends with an error. */
  continuations?: ContinuationSettings;
}

/** What every attempt of one run shares: the runner's settings, the models known to refuse a stream, the caller's signal. */
export interface AttemptScope {
  settings: ChatRunnerSettings;
  refusals: StreamRefusals;
  /** The caller's own signal (client gone): stops the upstream at any point. */
  callerSignal: AbortSignal | undefined;
}

export type ProviderLookup = ReadonlyMap<string, Provider> | ((providerId: string) => Provider | undefined);

export function lookup(providers: ProviderLookup, id: string): Provider | undefined {
  return typeof providers === "function" ? providers(id) : providers.get(id);
}

/** Who asks, for which model chain, under which signal: what a caller hands the runner unchanged. */
export interface RunRouting {
  agentId?: string;
  sessionKey?: string;
  model?: string;
  fallbacks?: readonly string[] | "none";
  source?: "cron" | "heartbeat";
  strictModel?: boolean;
  /** The caller's signal: aborts the upstream call at any point, also after the commit. */
  signal?: AbortSignal;
  /** Only this provider may answer: the request continues state it holds (an OpenAI Responses id). */
  pinnedProvider?: ProviderPin;
}

/** The routing options as the engine's run takes them (the pin is the attempts' business, not the run's). */
export function routingOptionsOf(options: RunRouting) {
  return {
    ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
    ...(options.sessionKey !== undefined ? { sessionKey: options.sessionKey } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.fallbacks !== undefined ? { fallbacks: options.fallbacks } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.strictModel !== undefined ? { strictModel: options.strictModel } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

/** The profile id rides along for providers that care (test doubles script outcomes per profile). */
export function callContext(
  context: AttemptContext,
  signal: AbortSignal,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): ProviderCallContext & { profileId?: string } {
  return {
    model: context.model,
    ...(context.credential ? { credential: context.credential } : {}),
    ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
    ...(onUpstreamHeaders ? { onUpstreamHeaders } : {}),
    signal,
  };
}
