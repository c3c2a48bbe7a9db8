/**
 * What the gateway answers when a run fails (SPEC R-GW-4, R-RA-2): a dialect-neutral description — HTTP
 * status, error kind, message, `Retry-After`, the attempts — that each dialect renders in its own error shape.
 */
import {
  ERROR_CODES,
  FailoverError,
  FallbackSummaryError,
  ModelSelectionError,
  SeatsFullError,
  type AttemptRecord,
} from "../core/errors.js";
import type { FailoverReason } from "../core/reasons.js";
import { ModelNameError } from "../config/index.js";
import type { RoutingError } from "./routing.js";

/** Error kinds both dialects know (each maps them to its own `type`). */
export type GatewayErrorKind =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "not_found"
  | "request_too_large"
  | "rate_limit"
  | "overloaded"
  | "timeout"
  | "upstream"
  | "internal";

/** What an error answer says of each attempt: the run's record without the hedge and timing details. */
export type GatewayErrorAttempt = Pick<
  AttemptRecord,
  "provider" | "model" | "profileId" | "reason" | "status" | "code" | "error" | "skipped"
>;

export interface GatewayError {
  status: number;
  kind: GatewayErrorKind;
  message: string;
  /** A stable code (Detour's, or the upstream's when it stated one). */
  code?: string;
  /** The body field or header at fault, for 400s (R-GW-4 names the path). */
  param?: string;
  /** Whole seconds for the `Retry-After` header. */
  retryAfterSeconds?: number;
  attempts?: GatewayErrorAttempt[];
}

const KIND_BY_STATUS: Readonly<Record<number, GatewayErrorKind>> = {
  400: "invalid_request",
  401: "authentication",
  402: "permission",
  403: "permission",
  404: "not_found",
  408: "timeout",
  413: "request_too_large",
  422: "invalid_request",
  429: "rate_limit",
  503: "overloaded",
  504: "timeout",
  529: "overloaded",
};

/** The status a failure reason answers with when the upstream stated none (a network error, a skip). */
const STATUS_BY_REASON: Readonly<Record<FailoverReason, number>> = {
  rate_limit: 429,
  overloaded: 503,
  timeout: 504,
  server_error: 502,
  billing: 402,
  auth: 502,
  auth_permanent: 502,
  format: 400,
  model_not_found: 404,
  session_expired: 502,
  context_overflow: 400,
  content_filter: 400,
  empty_response: 502,
  no_error_details: 502,
  unclassified: 502,
  incompatible: 400,
};

export function kindOfStatus(status: number): GatewayErrorKind {
  return KIND_BY_STATUS[status] ?? (status >= 500 ? "upstream" : "invalid_request");
}

function retryAfterSeconds(until: number | undefined, now: number): number | undefined {
  if (until === undefined || !Number.isFinite(until)) return undefined;
  return Math.max(1, Math.ceil((until - now) / 1000));
}

function isHttpErrorStatus(status: number | undefined): status is number {
  return status !== undefined && Number.isInteger(status) && status >= 400 && status <= 599;
}

function toAttempt(record: AttemptRecord): GatewayErrorAttempt {
  return {
    provider: record.provider,
    model: record.model,
    ...(record.profileId !== undefined ? { profileId: record.profileId } : {}),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.status !== undefined ? { status: record.status } : {}),
    ...(record.code !== undefined ? { code: record.code } : {}),
    error: record.error,
    ...(record.skipped ? { skipped: true } : {}),
  };
}

/** Failures that are the request's fault: another try of the same request cannot succeed (R-GW-9). */
const CLIENT_SIDE_REASONS: ReadonlySet<FailoverReason> = new Set(["format", "context_overflow", "content_filter", "incompatible"]);

function isClientSide(attempt: GatewayErrorAttempt): boolean {
  return attempt.status === 413 || (attempt.reason !== undefined && CLIENT_SIDE_REASONS.has(attempt.reason));
}

/**
 * R-GW-9: every attempt failed because of the request itself. Answered with the client's status class
 * (413 when an upstream said the body is too large, else 400) and the provider's own message, so SDKs do
 * not retry (they retry 5xx and 429, never 400/413).
 */
function clientSideExhaustion(attempts: GatewayErrorAttempt[]): GatewayError | undefined {
  if (attempts.length === 0 || !attempts.every(isClientSide)) return undefined;
  const tooLarge = attempts.find((attempt) => attempt.status === 413);
  const first = tooLarge ?? attempts.find((attempt) => !attempt.skipped) ?? attempts[0]!;
  const status = tooLarge ? 413 : 400;
  return {
    status,
    kind: kindOfStatus(status),
    message: `${first.provider}/${first.model} refused the request: ${first.error}`,
    code: first.code ?? first.reason ?? (tooLarge ? "request_too_large" : "invalid_request"),
    attempts,
  };
}

/**
 * R-GW-4 / R-RA-2: every candidate failed. 429 when every attempt was rate-limited, else 503; `Retry-After`
 * from the soonest cooldown expiry. R-GW-9: the client's status class when every failure was the client's.
 */
function exhaustion(error: FallbackSummaryError, now: number): GatewayError {
  const attempts = error.attempts.map(toAttempt);
  const clientSide = clientSideExhaustion(attempts);
  if (clientSide) return clientSide;
  const allRateLimited = attempts.length > 0 && attempts.every((attempt) => attempt.reason === "rate_limit");
  const status = allRateLimited ? 429 : 503;
  const retryAfter = retryAfterSeconds(error.soonestCooldownExpiry, now);
  return {
    status,
    kind: allRateLimited ? "rate_limit" : "overloaded",
    message: error.message,
    code: error.code,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    attempts,
  };
}

/** One classified failure: the provider's own status and message when it stated one (strict selection). */
function singleFailure(error: FailoverError, now: number): GatewayError {
  // Nothing was called because every profile is cooling down or disabled: like an exhausted chain, that is
  // temporary, so 429/503 with a Retry-After — never a 5xx that reads as a broken upstream (R-GW-4, R-RA-2).
  const status = isHttpErrorStatus(error.status)
    ? error.status
    : error.allInCooldown
      ? error.reason === "rate_limit"
        ? 429
        : 503
      : STATUS_BY_REASON[error.reason];
  const waitable = status === 429 || status === 503 || status === 529;
  const retryAfter = waitable ? retryAfterSeconds(error.resetAt, now) : undefined;
  const attempt: GatewayErrorAttempt | undefined =
    error.provider !== undefined && error.model !== undefined
      ? {
          provider: error.provider,
          model: error.model,
          ...(error.profileId !== undefined ? { profileId: error.profileId } : {}),
          reason: error.reason,
          ...(error.status !== undefined ? { status: error.status } : {}),
          ...(error.upstreamCode !== undefined ? { code: error.upstreamCode } : {}),
          error: error.message,
        }
      : undefined;
  // R-GW-6: an incompatible candidate names the request field it cannot carry.
  const field = (error as { field?: unknown }).field;
  return {
    status,
    kind: kindOfStatus(status),
    message: error.message,
    code: error.upstreamCode ?? error.reason,
    ...(typeof field === "string" ? { param: field } : {}),
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    ...(attempt ? { attempts: [attempt] } : {}),
  };
}

/** Describes a failed run. Unknown errors become a 500 whose message says where to look. */
export function describeRunError(error: unknown, now: number): GatewayError {
  if (error instanceof FallbackSummaryError) return exhaustion(error, now);
  if (error instanceof SeatsFullError) {
    // R-PO-8: Detour held the accounts to their seat limits; nothing upstream refused the request.
    return {
      status: 429,
      kind: "rate_limit",
      message: error.message,
      code: error.code,
      retryAfterSeconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
    };
  }
  if (error instanceof FailoverError) return singleFailure(error, now);
  if (error instanceof ModelNameError) {
    return { status: 400, kind: "invalid_request", message: error.message, code: error.code, param: error.origin };
  }
  if (error instanceof ModelSelectionError) {
    return { status: 400, kind: "invalid_request", message: error.message, code: error.code, param: "model" };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    kind: "internal",
    message: `Detour failed internally: ${message}. See the gateway log for details.`,
    code: ERROR_CODES.internal,
  };
}

/** A request the gateway rejects before any run: bad JSON, schema violations, routing headers. */
export function badRequest(message: string, param?: string): GatewayError {
  return { status: 400, kind: "invalid_request", message, code: ERROR_CODES.badRequest, ...(param ? { param } : {}) };
}

/** Something the request names that this gateway does not have or serve: a route, a model, a session. */
export function notFound(message: string, param?: string): GatewayError {
  return { status: 404, kind: "not_found", message, code: ERROR_CODES.notFound, ...(param ? { param } : {}) };
}

/** A routing header, query parameter or `model` field the gateway cannot use (R-GW-3, R-GW-8). */
export function badRouting(error: RoutingError): GatewayError {
  return { status: 400, kind: "invalid_request", message: error.message, code: error.code, param: error.path };
}

export function isAbortError(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === "AbortError";
}
