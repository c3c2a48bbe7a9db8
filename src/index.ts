/** Public API of the `detour` package. Names exported here are a contract: keep them. */

// --- errors and reasons ---
export * from "./core/errors.js";
export { FAILOVER_REASONS, REASON_POLICY, isFailoverReason } from "./core/reasons.js";
export type { FailoverReason, ReasonPolicy, ReasonLane } from "./core/reasons.js";
export type * from "./core/types.js";

// --- configuration ---
export {
  loadConfig,
  parseConfig,
  toJsonSchema,
  readEnvKnobs,
  resolveCooldownSettings,
  resolveProviderSettings,
  ConfigFileError,
} from "./config/index.js";
export type { DetourConfig, DetourConfigInput } from "./config/index.js";

// --- the pure core ---
export { classifyFailure, explainFailure } from "./core/classify/index.js";
export { parseResetHints } from "./core/retry-after.js";
export {
  recordFailure,
  recordSuccess,
  markUsed,
  clearExpired,
  isUsable,
  unusableUntil,
  unusableReason,
  resetUsageStats,
} from "./core/cooldown.js";
export { orderProfiles } from "./core/order-profiles.js";
export { resolveSessionPin } from "./core/session-pin.js";
export { decideCandidateAvailability } from "./core/availability.js";
export { explainUnavailable, soonestCooldownExpiry } from "./core/explain.js";
export { buildCandidateChain, parseModelRef, formatModelRef } from "./core/candidate-chain.js";
export { resolveSelection } from "./core/selection-source.js";
export type { Selection, SelectionInput, SelectionSource } from "./core/selection-source.js";
export type { DeferredRequestFacts, FitRequest, ModelFitFacts, RequestFacts, RequestFactsBound, RequestModality } from "./core/fit.js";
export { deferRequestFacts } from "./core/fit.js";
export { formatNotice, encodeNoticeHeader, decodeNoticeHeader } from "./core/notices.js";
export { formatSummaryMessage } from "./core/summary.js";

// --- ports ---
export type * from "./ports/canonical.js";
export type { Clock } from "./ports/clock.js";
export type { Random } from "./ports/random.js";
export type { StateStore, StoredProfile, RecordFailureParams } from "./ports/state-store.js";
export type { Provider, ProviderApi, ProviderCallContext } from "./ports/provider.js";
export { UpstreamFailure } from "./ports/provider.js";
export { systemClock } from "./ports/system-clock.js";

// --- providers ---
export { createProvider, createProviderRegistry, UnknownProviderError, createCappedFetch } from "./providers/index.js";

// --- testing helpers users can import too ---
export { FakeClock } from "./testing/fake-clock.js";
export { SeededRandom } from "./testing/seeded-random.js";
export {
  startMockProvider,
  BUILTIN_SCENARIO_NAMES,
  parseScenarioFile,
  loadScenarioFile,
  MockScenarioError,
} from "./testing/mock-provider/index.js";

// --- the engine (library API, SPEC §17) ---
export { createDetour } from "./engine/create-detour.js";
export type {
  CreateDetourOptions,
  Detour,
  DetourProfiles,
  DetourSessions,
  RunWithOptions,
  SessionPatch,
  PostCommitFailureReport,
  PostCommitFailureResult,
} from "./engine/create-detour.js";
export { createCanonicalRunner } from "./pipe/run-canonical.js";
export type { CanonicalRunOptions, CanonicalStreamResult } from "./pipe/run-canonical.js";
export type { EmbedOptions, EmbeddingsAnswer } from "./engine/run-embeddings.js";
export type { CountTokensOptions, CountTokensAnswer } from "./engine/run-count-tokens.js";
export type { UsageReport } from "./engine/usage-costs.js";
export type { DetourTraces, TraceWriteStats } from "./engine/run-traces.js";
export type { RunTraceV1, RunTraceOutcome, TraceAttempt } from "./core/run-trace.js";
export { hashSessionKey } from "./ports/trace-store.js";
export type { TraceQuery } from "./ports/trace-store.js";
export { runWithModelFallback } from "./runner/run-with-model-fallback.js";
export type { AttemptContext, AttemptFn, RunOutcome } from "./runner/attempt.js";
export type { DetourEvent, DetourEventType, Logger, LogLevel, ModelFallbackDecisionEvent } from "./ports/events.js";

// --- state ---
export { openStateStore } from "./state/open-store.js";
export type { OpenStateStoreOptions, StateBackend } from "./state/open-store.js";
export { MemoryStateStore } from "./state/memory/memory-store.js";
export { SqliteStateStore } from "./state/sqlite/sqlite-store.js";
export { RedisStateStore } from "./state/redis/redis-store.js";
export { importLegacyOpenClaw } from "./state/legacy-import.js";
export type { LegacyImportReport } from "./state/legacy-import.js";

// --- gateway ---
export { startGateway } from "./gateway/start-gateway.js";
export type { StartGatewayOptions, RunningGateway } from "./gateway/start-gateway.js";
export { buildGatewayApp } from "./gateway/app.js";

// --- more testing helpers ---
export { ScriptedProvider } from "./testing/scripted-provider.js";
