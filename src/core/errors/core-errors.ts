/** The errors of the decision plane. Every message says what happened and what to do next. */
import type { FailoverReason } from "../reasons.js";
import { configErrorMessage, type ConfigIssue } from "../config-error-message.js";
import { ERROR_CODES } from "./codes.js";
import { DetourError } from "./detour-error.js";

export type { ConfigIssue } from "../config-error-message.js";

/** One attempt record, as carried by FallbackSummaryError and returned by a run (R-FB-6). */
export interface AttemptRecord {
  provider: string;
  model: string;
  profileId?: string;
  reason?: FailoverReason;
  status?: number;
  code?: string;
  /** Secret-free preview of the error text. */
  error: string;
  /** The attempt was not made: the candidate was skipped (skip cache, cooldown, …). */
  skipped?: boolean;
  /** R-HG-1: the attempt lost a hedge race: aborted because another answered first (no failure recorded). */
  hedge?: "lost";
}

export interface FailoverErrorDetails {
  reason: FailoverReason;
  provider?: string;
  model?: string;
  profileId?: string;
  status?: number;
  code?: string;
  /** Provider-stated or computed moment the blocking window ends, when known. */
  resetAt?: number;
  /** Every profile of the provider was unusable before any call was made (R-RN-5). */
  allInCooldown?: boolean;
  cause?: unknown;
}

/** A classified failure of one candidate (or one attempt). */
export class FailoverError extends DetourError {
  readonly code = ERROR_CODES.failover;
  readonly reason: FailoverReason;
  readonly provider?: string;
  readonly model?: string;
  readonly profileId?: string;
  readonly status?: number;
  readonly upstreamCode?: string;
  readonly resetAt?: number;
  readonly allInCooldown: boolean;

  constructor(message: string, details: FailoverErrorDetails) {
    super(message, { cause: details.cause });
    this.reason = details.reason;
    this.provider = details.provider;
    this.model = details.model;
    this.profileId = details.profileId;
    this.status = details.status;
    this.upstreamCode = details.code;
    this.resetAt = details.resetAt;
    this.allInCooldown = details.allInCooldown ?? false;
  }
}

/** Every candidate failed (R-FB-6). */
export class FallbackSummaryError extends DetourError {
  readonly code = ERROR_CODES.fallbackSummary;
  readonly attempts: readonly AttemptRecord[];
  readonly soonestCooldownExpiry?: number;

  constructor(message: string, details: { attempts: readonly AttemptRecord[]; soonestCooldownExpiry?: number; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.attempts = details.attempts;
    this.soonestCooldownExpiry = details.soonestCooldownExpiry;
  }
}

/** The user switched models while a run was in flight (R-FB-7). */
export class LiveSessionModelSwitchError extends DetourError {
  readonly code = ERROR_CODES.liveSessionModelSwitch;
  readonly provider: string;
  readonly model: string;

  constructor(target: { provider: string; model: string }) {
    super(`The session switched to ${target.provider}/${target.model} while a run was in flight; ` + `the run continues with that model.`);
    this.provider = target.provider;
    this.model = target.model;
  }
}

/**
 * R-PO-8: every usable profile of every candidate was at its seat limit (`maxConcurrent`) and no seat freed
 * within `gateway.queueTimeoutSeconds`, or the waiting line already held `gateway.queueMax` requests.
 * Nothing upstream refused the request: it is Detour holding the accounts to their limits.
 */
export class SeatsFullError extends DetourError {
  readonly code = ERROR_CODES.seatsFull;
  /** The full profiles the request waited for. */
  readonly profileIds: readonly string[];
  /** `timed_out`: waited the whole queue timeout; `queue_full`: the line was full, it never waited. */
  readonly why: "timed_out" | "queue_full";
  /** When trying again is worth it (the gateway's `Retry-After`). */
  readonly retryAfterMs: number;

  constructor(details: { profileIds: readonly string[]; why: "timed_out" | "queue_full"; waitedMs: number; retryAfterMs: number }) {
    const profiles = details.profileIds.join(", ");
    const what =
      details.why === "queue_full"
        ? `the line of requests waiting for a seat is full (gateway.queueMax)`
        : `no seat freed within ${Math.round(details.waitedMs / 1000)} s (gateway.queueTimeoutSeconds)`;
    super(
      `Every usable profile is at its seat limit (${profiles}) and ${what}. Try again shortly, add a profile, ` +
        `or raise auth.profiles.<id>.maxConcurrent if the account allows more requests at once.`,
    );
    this.profileIds = details.profileIds;
    this.why = details.why;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** The config file is invalid; lists every problem at once (R-CF-2). */
export class ConfigError extends DetourError {
  readonly code = ERROR_CODES.config;
  readonly issues: readonly ConfigIssue[];
  readonly source?: string;

  constructor(issues: readonly ConfigIssue[], source?: string) {
    super(configErrorMessage(issues, source));
    this.issues = issues;
    this.source = source;
  }
}

/**
 * A model could not be selected: a model reference does not name `provider/model` (nor a configured
 * alias), or nothing names a model at all (R-CH-1, R-CH-2). Raised before any provider is called. With a
 * `reason`, the message is that reason (how a bare model name failed to resolve, with suggestions).
 */
export class ModelSelectionError extends DetourError {
  readonly code = ERROR_CODES.modelSelection;
  /** The text that could not be resolved; absent when no model was named anywhere. */
  readonly input?: string;
  /** Where the text came from, e.g. `request model`, `fallbacks[1]`, `session override`. */
  readonly origin: string;

  constructor(details: { input?: string; origin: string; reason?: string }) {
    const message =
      details.reason !== undefined
        ? `Cannot use model ${JSON.stringify(details.input ?? "")} (${details.origin}): ${details.reason}.`
        : details.input === undefined
          ? `No model is selected (${details.origin}): name one as "provider/model" (for example ` +
            `"openai/gpt-5"), or set agents.defaults.model.primary (and fallbacks) in detour.json5: ` +
            `agents: { defaults: { model: { primary: "openai/gpt-5", fallbacks: ["anthropic/claude-sonnet-4-6"] } } }.`
          : `Cannot resolve model ${JSON.stringify(details.input)} (${details.origin}): write it as ` +
            `"provider/model" (e.g. "anthropic/claude-sonnet-4-6") or use an alias from agents.defaults.models.`;
    super(message);
    this.input = details.input;
    this.origin = details.origin;
  }
}
