/**
 * Failover reasons (SPEC R-EC-1) and the one table that says what each reason does.
 * The runner never branches on reason strings itself: it reads REASON_POLICY.
 */
export const FAILOVER_REASONS = [
  "auth",
  "auth_permanent",
  "billing",
  "rate_limit",
  "overloaded",
  "timeout",
  "server_error",
  "format",
  "model_not_found",
  "session_expired",
  "context_overflow",
  "content_filter",
  "empty_response",
  "no_error_details",
  "unclassified",
  "incompatible",
] as const;

export type FailoverReason = (typeof FAILOVER_REASONS)[number];

/** Which usage-stats window a recorded failure opens (SPEC §5). */
export type ReasonLane = "cooldown" | "disabled" | "none";

export interface ReasonPolicy {
  /** Written to the profile's usage stats (R-CD-5 lists the ones that are not). */
  readonly recordOnProfile: boolean;
  /** Which window a recorded failure opens. */
  readonly lane: ReasonLane;
  /** A new cooldown window remembers the failing model (R-CD-4). */
  readonly modelScoped: boolean;
  /** The auth-profile runner moves to the next profile of the same provider (R-RN-2). */
  readonly rotateProfile: boolean;
  /** The fallback runner may move to the next candidate model (R-FB-5). */
  readonly advanceToNextModel: boolean;
  /** The whole run stops at once and the error surfaces (R-FB-5). */
  readonly stopRun: boolean;
  /**
   * A stopping failure that may still move on to a later candidate whose declared context window is larger
   * than the failing model's (R-FB-5, context overflow). Absent = false.
   */
  readonly advanceToLargerContextWindow?: boolean;
  /**
   * A non-primary candidate failing with this reason is skipped in the session while the skip cache's
   * marker lives (R-FB-2, auth-class failures). Absent = false.
   */
  readonly marksSessionSkipCache?: boolean;
  /**
   * Weak, transient signals retry the same profile first (R-RN-4); names the
   * `agents.defaults.modelFailover` key that caps the retries. Absent = no retry gate.
   */
  readonly retryGateKey?: "retrySameProfileOnTimeout" | "retrySameProfileOnServerError";
  /** Rotation is capped when a fallback exists (R-RN-3); names the config key of the cap. */
  readonly rotationCapKey?: "overloadedProfileRotations" | "rateLimitedProfileRotations";
  /** A short provider-stated wait may be waited out on the same profile (R-RN-6). */
  readonly shortWaitEligible: boolean;
  /** Explaining-reason rank when every profile is unusable (R-RN-5); higher wins ties. */
  readonly explainRank: number;
  /** A transient reason: the primary may be probed while cooling down (R-FB-3). */
  readonly transient: boolean;
  /** A failed probe with this reason does not use up the provider's probe slot (R-FB-3). */
  readonly keepsProbeSlot: boolean;
}

/**
 * A failure held against the profile that moves on: to the provider's next profile, then to the next model.
 * Every recorded reason but model_not_found (which blames the model, not the profile) starts from here.
 */
const rotatesAway = {
  recordOnProfile: true,
  modelScoped: false,
  rotateProfile: true,
  advanceToNextModel: true,
  stopRun: false,
  shortWaitEligible: false,
} as const;

const transientCooldown = {
  ...rotatesAway,
  lane: "cooldown",
  explainRank: 0,
  transient: true,
  keepsProbeSlot: false,
} as const satisfies ReasonPolicy;

/** The credential failures: never transient, and they mark the session's skip cache (R-FB-2). */
const credentialFailure = { ...rotatesAway, transient: false, keepsProbeSlot: true, marksSessionSkipCache: true } as const;

/** Reasons that stop rotating inside a candidate and are not written to the profile. */
const notRecorded = {
  recordOnProfile: false,
  lane: "none",
  modelScoped: false,
  rotateProfile: false,
  shortWaitEligible: false,
  explainRank: 0,
  transient: false,
  keepsProbeSlot: true,
} as const;

export const REASON_POLICY: Readonly<Record<FailoverReason, ReasonPolicy>> = Object.freeze({
  auth: { ...credentialFailure, lane: "cooldown", explainRank: 7 },
  auth_permanent: { ...credentialFailure, lane: "disabled", explainRank: 8 },
  billing: { ...rotatesAway, lane: "disabled", explainRank: 6, transient: false, keepsProbeSlot: false },
  rate_limit: {
    ...transientCooldown,
    modelScoped: true,
    rotationCapKey: "rateLimitedProfileRotations",
    shortWaitEligible: true,
    explainRank: 1,
  },
  // R-CD-4: providers overload and fail per model far more often than per account.
  overloaded: {
    ...transientCooldown,
    modelScoped: true,
    rotationCapKey: "overloadedProfileRotations",
    shortWaitEligible: true,
    explainRank: 3,
  },
  timeout: { ...transientCooldown, modelScoped: true, retryGateKey: "retrySameProfileOnTimeout", explainRank: 2 },
  server_error: { ...transientCooldown, modelScoped: true, retryGateKey: "retrySameProfileOnServerError" },
  unclassified: { ...transientCooldown },
  empty_response: { ...transientCooldown },
  no_error_details: { ...transientCooldown },
  model_not_found: {
    recordOnProfile: true,
    lane: "cooldown",
    modelScoped: true,
    rotateProfile: false,
    advanceToNextModel: true,
    stopRun: false,
    shortWaitEligible: false,
    explainRank: 4,
    transient: false,
    keepsProbeSlot: true,
  },
  format: { ...notRecorded, advanceToNextModel: true, stopRun: false, explainRank: 5 },
  session_expired: { ...notRecorded, advanceToNextModel: true, stopRun: false },
  // Context overflow belongs to compaction; the fallback runner only skips to a larger window (R-FB-5).
  context_overflow: { ...notRecorded, advanceToNextModel: false, stopRun: true, advanceToLargerContextWindow: true },
  // Answering a safety refusal from another model would route around the provider's decision (R-FB-5).
  content_filter: { ...notRecorded, advanceToNextModel: false, stopRun: true },
  // The request carries something this candidate cannot take (a field its wire format cannot express,
  // an input modality, R-GW-6 / R-FB-8): skipped before any upstream call, never held against the profile.
  incompatible: { ...notRecorded, advanceToNextModel: true, stopRun: false },
});

export function isFailoverReason(value: unknown): value is FailoverReason {
  return typeof value === "string" && (FAILOVER_REASONS as readonly string[]).includes(value);
}
