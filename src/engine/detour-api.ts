/** The public shapes of the library API (SPEC §17): options, results, and the Detour object itself. */
import type { TracerProvider } from "@opentelemetry/api";
import type { DetourConfig, DetourConfigInput } from "../config/index.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/events.js";
import type { Provider } from "../ports/provider.js";
import type { Random } from "../ports/random.js";
import type { StateStore } from "../ports/state-store.js";
import type { RunOutcome } from "../runner/attempt.js";
import type { EventHub } from "./event-hub.js";
import type { CanonicalRunner } from "../pipe/run-canonical.js";
import type { DetourStatus, ProfileStatus, SessionStatus } from "./status.js";
import type { UsageReport } from "./usage-costs.js";
import type { EmbeddingsRunner } from "./run-embeddings.js";
import type { CountTokensRunner } from "./run-count-tokens.js";
import type { DetourTraces } from "./run-traces.js";
import type { CredentialDiscovery } from "./discover-credentials.js";
import type { ChatRunner } from "../pipe/chat-runner.js";
import type { HeadroomRecorder } from "../pipe/headroom-recorder.js";
import type { PostCommitFailureReport, PostCommitFailureResult, RunWithOptions } from "../pipe/run-with.js";

/** What a run is asked to do and how a failure after the commit point is reported: the pipe's contract with the runner. */
export type { PostCommitFailureReport, PostCommitFailureResult, RunTraceFacts, RunWithOptions } from "../pipe/run-with.js";

/** The runner's attempt and outcome shapes, for front ends that must not import runner/ (DESIGN §1). */
export type { AttemptContext, AttemptFn, AttemptProfile, CommittedRun, ContinuationPolicy, RunOutcome } from "../runner/attempt.js";

export interface CreateDetourOptions {
  /** A config object (validated here, R-CF-2). Without it, `configPath` or the usual lookup applies (R-CF-1). */
  config?: DetourConfigInput | DetourConfig;
  configPath?: string;
  /**
   * One store for every agent, or a factory per agent. Default: the configured backend (`state.backend`),
   * one per agent. Stores passed in are not closed by `close()`; stores Detour opened are.
   */
  store?: StateStore | ((agentId: string) => StateStore | Promise<StateStore>);
  clock?: Clock;
  random?: Random;
  logger?: Logger;
  /** Providers by id, for front ends that run canonical requests. Default: every provider the config can reach. */
  providers?: Readonly<Record<string, Provider>> | readonly Provider[];
  /** Environment for knobs and `keyRef.env` (R-CF-4). Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** R-CF-5: with no configured or stored profiles, use OPENAI_API_KEY & co. (gateway, `detour run`). */
  discoverEnvCredentials?: boolean;
  /**
   * R-CF-5 in full, as `detour gateway` and `detour run` do it: with no profile configured or stored (in the
   * store of `agentId`, default `main`), the provider variables become profiles (as `discoverEnvCredentials`)
   * and a local Ollama that answers at $OLLAMA_HOST or 127.0.0.1:11434 serves as the `ollama` provider (unless
   * the config sets its URL); with nothing at all createDetour fails with NoCredentialsError. What was found
   * is `detour.discovery`.
   */
  discoverCredentials?: { agentId?: string };
  /**
   * For callers that only look (`detour status`, `detour auth list`): stores are opened without creating
   * state — an agent with no SQLite file is an empty in-memory view — and run traces are not written.
   */
  readOnly?: boolean;
  /**
   * Where run and attempt spans go. Default: the globally registered OpenTelemetry provider; with no SDK
   * registered, tracing costs nothing.
   */
  tracerProvider?: TracerProvider;
  /**
   * Record every run as a trace in the agent's store (R-OB-4, bounded by `trace.keepRuns` / `trace.keepHours`).
   * Default true; `false` records nothing (for measuring what recording costs, or an embedder keeping its own).
   */
  recordTraces?: boolean;
}

export interface SessionPatch {
  /** `provider/model` or an alias; `null` removes the user's model choice. */
  model?: string | null;
  /** A profile id to pin strictly (R-PO-6); `null` removes the pin. */
  profile?: string | null;
}

export interface AgentOption {
  agentId?: string;
}

export interface DetourSessions {
  get(sessionKey: string, options?: AgentOption): Promise<SessionStatus | undefined>;
  list(options?: AgentOption): Promise<SessionStatus[]>;
  /** A user-driven change (R-SO-4): strict override, marks a pending live switch. */
  patch(sessionKey: string, patch: SessionPatch, options?: AgentOption): Promise<SessionStatus>;
  /** `/new`, `/reset`: clears auto overrides and auto pins, keeps user ones (R-SO-3). */
  reset(sessionKey: string, options?: AgentOption): Promise<SessionStatus | undefined>;
  /** Compaction completed: an auto pin is re-chosen on the next run (R-PO-5). */
  markCompacted(sessionKey: string, options?: AgentOption): Promise<SessionStatus>;
  // --- retention (R-GW-8) ---
  /**
   * Removes the sessions not written for `olderThanMs` (default `sessions.idleTtlDays`); returns their keys.
   * Fails with `DETOUR_STORE_UNAVAILABLE` when the store does not take it (R-SB-5).
   */
  prune(options?: AgentOption & { olderThanMs?: number }): Promise<string[]>;
  /** Removes one session; returns whether it existed (R-GW-8). */
  remove(sessionKey: string, options?: AgentOption): Promise<boolean>;
}

export interface DetourProfiles {
  list(options?: AgentOption & { provider?: string }): Promise<ProfileStatus[]>;
  /** R-CD-8: clears every window and counter of the profile at once. */
  reset(profileId: string, options?: AgentOption): Promise<void>;
}

export interface Detour {
  readonly config: DetourConfig;
  readonly providers: ReadonlyMap<string, Provider>;
  runWith<T>(options: RunWithOptions<T>): Promise<RunOutcome<T>>;
  /** One canonical chat request through the chain, answered by whichever provider API it reaches (SPEC §17). */
  readonly run: CanonicalRunner["run"];
  /** R-ST-2: a committed stream failed later; classify it and record it on the profile. */
  reportPostCommitFailure(report: PostCommitFailureReport): Promise<PostCommitFailureResult>;
  readonly sessions: DetourSessions;
  readonly profiles: DetourProfiles;
  status(options?: AgentOption): Promise<DetourStatus>;
  /**
   * R-GW-7: prices an answer's usage (config `cost`, else the catalogue) and charges it to the answering
   * profile's 24-hour spend, best effort and without waiting. Returns the cost in US dollars, or undefined
   * when the model's prices are unknown.
   */
  recordUsage(report: UsageReport): number | undefined;
  /**
   * An OpenAI embeddings request through the runner: the embedding model's profiles rotate and cool down as
   * for chat; fallbacks only to models declared with the same `embeddingSpace`.
   */
  readonly embed: EmbeddingsRunner;
  /** Anthropic `count_tokens` through the runner, answered by the chain's Anthropic Messages candidates. */
  readonly countTokens: CountTokensRunner;
  readonly on: EventHub["on"];
  readonly events: Pick<EventHub, "on">;
  /** The state store of an agent, opened on first use (for front ends that manage credentials). */
  store(agentId?: string): Promise<StateStore>;
  /** R-OB-4: the recorded run traces (recent runs, the request log). */
  readonly traces: DetourTraces;
  close(): Promise<void>;
}

/**
 * What `createDetour` builds beyond the library API, for the front ends it serves (the gateway, the CLI):
 * they take these from the engine and never build them themselves.
 */
export interface DetourEngine extends Detour {
  /** The chat runner for requests that come with the client's bytes (R-GW-6); undefined when no provider of the config can be called with them. */
  readonly passThrough: ChatRunner | undefined;
  /** R-PO-7: reads an attempt's upstream headers into headroom, for a front end that calls upstream itself (the AI SDK model). */
  readonly headroom: HeadroomRecorder;
  /** What R-CF-5 discovery found; undefined unless `discoverCredentials` was asked for. */
  readonly discovery: CredentialDiscovery | undefined;
  /**
   * The engine for a reloaded config: the same stores (this engine keeps owning them: close it last), clock,
   * randomness, logger, environment and discovery; new providers and lanes from `config`.
   */
  reload(config: DetourConfig): Promise<DetourEngine>;
}
