/**
 * Shared data shapes of the pure core. Every backend stores these exact JSON shapes (R-AP-4).
 * All times are epoch milliseconds.
 */
import type { FailoverReason } from "./reasons.js";

export type { FailoverReason } from "./reasons.js";

/** `provider/model`, split. */
export interface ModelRef {
  readonly provider: string;
  readonly model: string;
}

/** Per-profile runtime routing state (R-AP-4). Absent fields mean "never happened / not set". */
export interface UsageStats {
  lastUsed?: number;
  errorCount?: number;
  failureCounts?: Partial<Record<FailoverReason, number>>;
  lastFailureAt?: number;
  cooldownUntil?: number;
  cooldownReason?: FailoverReason;
  cooldownModel?: string;
  disabledUntil?: number;
  disabledReason?: "billing" | "auth_permanent";
  blockedUntil?: number;
  blockedReason?: FailoverReason;
  blockedModel?: string;
}

/** Stored credential types (R-AP-1). */
export interface ApiKeyCredential {
  type: "api_key";
  provider: string;
  key: string;
}
export interface OAuthCredential {
  type: "oauth";
  provider: string;
  access?: string;
  refresh?: string;
  expires?: number;
  email?: string;
  accountId?: string;
  projectId?: string;
  enterpriseUrl?: string;
}
export interface TokenCredential {
  type: "token";
  provider: string;
  token: string;
  expires?: number;
}
export type Credential = ApiKeyCredential | OAuthCredential | TokenCredential;
export type CredentialType = Credential["type"];

/** Config-level profile metadata (`auth.profiles.<id>`), R-CF-3. */
export interface ProfileConfig {
  provider: string;
  mode: "api_key" | "oauth" | "token";
  email?: string;
  keyRef?: { env: string };
  /** R-PO-8: the most attempts in flight on this profile at once. */
  maxConcurrent?: number;
}

/** Resolved `auth.cooldowns` with every default applied (R-CF-3). */
export interface CooldownSettings {
  billingBackoffHours: number;
  billingBackoffHoursByProvider: Readonly<Record<string, number>>;
  billingMaxHours: number;
  authPermanentBackoffMinutes: number;
  authPermanentMaxMinutes: number;
  failureWindowHours: number;
  overloadedProfileRotations: number;
  overloadedBackoffMs: number;
  rateLimitedProfileRotations: number;
  ladderSeconds: readonly number[];
  timeoutLadderSeconds: readonly number[];
}

/** What an adapter extracts from a failure at the boundary (R-EC-1). */
export interface FailureInput {
  provider?: string;
  status?: number;
  code?: string;
  errorType?: string;
  message?: string;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Current time, needed only to turn relative reset hints into an absolute `resetAt`. */
  now?: number;
  /** Set when the failure is the caller's own abort (R-EC-7). */
  aborted?: boolean;
}

/** The classifier's verdict (R-EC-1, R-EC-6). */
export interface Classification {
  reason: FailoverReason;
  status?: number;
  code?: string;
  /** Absolute provider-stated reset time (epoch ms), when one was stated. */
  resetAt?: number;
  /** Relative provider-stated wait, when one was stated. */
  retryAfterMs?: number;
  /** R-PO-8: a rate limit on requests at once (a concurrency limit), not on requests per window. */
  concurrencyLimit?: true;
  /** A short, secret-free preview of the raw error text. */
  preview: string;
}

/** Session fields owned by the fallback path (R-SO-1). */
export interface SessionOverrides {
  providerOverride?: string;
  modelOverride?: string;
  modelOverrideSource?: "auto" | "user";
  modelOverrideFallbackOriginProvider?: string;
  modelOverrideFallbackOriginModel?: string;
  authProfileOverride?: string;
  authProfileOverrideSource?: "auto" | "user";
  authProfileOverrideCompactionCount?: number;
  /**
   * R-PO-5 per provider: the pins of the providers other than the one `authProfileOverride` belongs to,
   * keyed by provider, so a turn on another provider does not end a pin's stickiness. Keys are kept sorted
   * (the stores compare the value as JSON). Absent in sessions written before it existed.
   */
  authProfilePinsByProvider?: Readonly<Record<string, StoredProfilePin>>;
}

/** A session's pin for one provider, kept while the session runs on another provider. */
export interface StoredProfilePin {
  profileId: string;
  source: "auto" | "user";
  compactionCount?: number;
}

export const SESSION_OWNED_FIELDS = [
  "providerOverride",
  "modelOverride",
  "modelOverrideSource",
  "modelOverrideFallbackOriginProvider",
  "modelOverrideFallbackOriginModel",
  "authProfileOverride",
  "authProfileOverrideSource",
  "authProfileOverrideCompactionCount",
  "authProfilePinsByProvider",
] as const satisfies readonly (keyof SessionOverrides)[];

/** A session entry as stored: owned override fields plus the bookkeeping the runner needs. */
export interface SessionEntry extends SessionOverrides {
  sessionKey: string;
  /** Grows when compaction completes (R-PO-5). */
  compactionCount?: number;
  /** When the current auto fallback began, or the origin was last probed (R-SO-3). */
  fallbackProbeAnchorAt?: number;
  /** A user-driven model change is waiting to be reconciled by a live run (R-SO-4). */
  pendingLiveSwitch?: boolean;
  updatedAt?: number;
}
