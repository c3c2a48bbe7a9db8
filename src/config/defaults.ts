/**
 * The documented defaults of SPEC R-CF-3, in one place. The schema applies them, the cooldown sanitizer
 * falls back to them, and docs/configuration.md repeats them (its test keeps the key list honest).
 */
import type { CooldownSettings } from "../core/types.js";

export const DEFAULT_COOLDOWNS: CooldownSettings = Object.freeze({
  billingBackoffHours: 5,
  billingBackoffHoursByProvider: Object.freeze({}),
  billingMaxHours: 24,
  authPermanentBackoffMinutes: 10,
  authPermanentMaxMinutes: 60,
  failureWindowHours: 24,
  overloadedProfileRotations: 1,
  overloadedBackoffMs: 0,
  rateLimitedProfileRotations: 1,
  ladderSeconds: Object.freeze([30, 60, 300]),
  timeoutLadderSeconds: Object.freeze([10, 20, 40, 80, 160, 300]),
});

/** A provider's `timeoutSeconds` when neither the user nor a built-in default sets one. */
export const DEFAULT_PROVIDER_TIMEOUT_SECONDS = 120;

export const DEFAULT_AGENT_ID = "main";

export const DEFAULT_AGENT_TIMEOUT_SECONDS = 600;

export const DEFAULT_MODEL_FAILOVER = Object.freeze({
  retrySameProfileOnTimeout: 1,
  retrySameProfileOnServerError: 1,
  retryBackoffMs: Object.freeze([300, 1200] as const),
  shortWaitSeconds: 3,
  waitForCooldownMaxSeconds: 10,
});

/** R-HG-1, R-HG-3: racing a slow attempt by the next one. `afterMs` has no default: it is learned per model. */
export const DEFAULT_HEDGING = Object.freeze({
  enabled: true,
  maxExtra: 1,
  budgetPercent: 10,
  burst: 3,
});

export const DEFAULT_GATEWAY = Object.freeze({
  host: "127.0.0.1",
  port: 4141,
  notices: "header" as const,
  streamStallSeconds: 30,
  streamContinuations: 2,
  maxBodyMb: 32,
  queueTimeoutSeconds: 30,
  queueMax: 1000,
});

/**
 * R-ST-6: the first-token watchdog when `gateway.ttftTimeoutSeconds` is not set follows the model. Reasoning
 * models (as the catalogue marks them) think before their first visible token, so they get longer.
 */
export const DEFAULT_TTFT_TIMEOUT_SECONDS = Object.freeze({ ordinary: 15, reasoning: 60 });

/** `auth.headroom` (R-PO-7): when a profile counts as nearly spent, and which one to spend first. */
export const DEFAULT_HEADROOM = Object.freeze({
  minRemaining: 0.05,
  strategy: "spread" as const,
});

/** `sessions` (R-GW-8): sessions idle longer than this are pruned by the store. */
export const DEFAULT_SESSIONS = Object.freeze({
  idleTtlDays: 30,
  maxCount: 100_000,
});

/** Run traces kept per agent: a ring bounded by count and by age, whichever bites first. */
export const DEFAULT_TRACE = Object.freeze({
  keepRuns: 10_000,
  keepHours: 24,
});

export const DEFAULT_STATE_BACKEND = "sqlite" as const;
export const DEFAULT_REDIS_KEY_PREFIX = "detour";

/** Basename of the config file looked up in the working directory and in DETOUR_HOME (R-CF-1). */
export const CONFIG_FILE_NAME = "detour.json5";
/** DETOUR_HOME when the environment does not set it, relative to the user's home directory. */
export const DEFAULT_HOME_DIR_NAME = ".detour";
