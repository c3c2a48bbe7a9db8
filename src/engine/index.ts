/**
 * The engine as the front ends (gateway/, cli/, demo/) see it: the one composition root, the shapes its lanes
 * hand back, and the few formatting and store tools the commands that inspect state need. The import test
 * holds the front ends to this file (DESIGN §1: they render; they never compose engines), so everything else
 * of engine/ can change without touching them. Loading it loads nothing a plain gateway start does not use:
 * what-if replay and the drills (with the model catalogue they price by) are `replay/index.ts`, a surface of
 * their own that only `detour replay` and `detour drill` load.
 */

// --- the composition root and what it builds ---
export { createDetour } from "./create-detour.js";
export type {
  AttemptContext,
  CreateDetourOptions,
  Detour,
  DetourEngine,
  DetourProfiles,
  DetourSessions,
  RunOutcome,
  SessionPatch,
} from "./detour-api.js";
export type { CredentialDiscovery } from "./discover-credentials.js";
export type { CanonicalRunner, CanonicalStreamResult } from "../pipe/run-canonical.js";
export type { ChatRequestSource, ChatRunner, LaneResponse, RawStreamResult } from "../pipe/chat-runner.js";
export { FORWARDED_RESPONSE_HEADERS } from "../providers/shared/pass-through-call.js";
export type { ProviderPin } from "../pipe/provider-pin.js";
export { EventHub } from "./event-hub.js";

// --- what front ends show and measure ---
export type { DetourStatus, ProfileStatus, SessionStatus } from "./status.js";
export type { ProfileSeatStatus } from "./seat-keeping.js";
export { headroomText } from "./headroom-status.js";
export { requestFacts } from "../pipe/request-facts.js";

// --- store tools for the commands that inspect state (`detour doctor`, `detour trace`, the gateway banner) ---
export { openStateStore } from "../state/open-store.js";
export { importLegacyOpenClaw, type LegacyImportReport } from "../state/legacy-import.js";
export { redactUrl } from "../state/redis/redact-url.js";
export { sqliteStatePath } from "../state/sqlite/sqlite-file.js";
export { openTraceStore } from "../state/traces/open-trace-store.js";

// --- traces (the request log's metrics); replay and the drills have their own surface, replay/index.ts ---
export type { DetourTraces, TraceWriteStats } from "./run-traces.js";
