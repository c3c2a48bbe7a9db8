/**
 * R-EC-4: machine codes. Tested (anchored, case-insensitive) against every code candidate: the adapter's
 * `code` and `errorType`, and the body's `code`, `type`, `status` and detail reasons. Rows whose reason is
 * in EARLY_REASONS are checked before the status (R-EC-2); the others after it.
 */
import type { CodeRule } from "./rule-types.js";

const row = (code: string, reason: CodeRule["reason"], pattern?: RegExp): CodeRule => ({
  id: `code/${code}`,
  reason,
  pattern: pattern ?? new RegExp(`^${code}$`, "i"),
});

/** Node, undici and DNS transport failures. */
const NETWORK_CODES = [
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "ECONNRESET",
  "ECONNABORTED",
  "ECONNREFUSED",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETRESET",
  "EPIPE",
  "EAI_AGAIN",
  "EAI_NONAME",
  "EAI_NODATA",
  "ENOTFOUND",
  "ERR_STREAM_PREMATURE_CLOSE",
] as const;

export const CODE_RULES: readonly CodeRule[] = [
  row("context_length_exceeded", "context_overflow"),
  row("content_policy_violation", "content_filter"),
  row("content_filter", "content_filter"),
  row("ResponsibleAIPolicyViolation", "content_filter"),
  // Gemini block reasons / finish reasons an adapter may pass as the code.
  row("SAFETY", "content_filter", /^(?:SAFETY|PROHIBITED_CONTENT|BLOCKLIST|SPII)$/i),
  row("DEACTIVATED_WORKSPACE", "auth_permanent"),
  row("RESOURCE_EXHAUSTED", "rate_limit"),
  row("RATE_LIMIT", "rate_limit", /^RATE_LIMIT(?:ED|_EXCEEDED|_ERROR)?$/i),
  row("TOO_MANY_REQUESTS", "rate_limit"),
  row("THROTTL", "rate_limit", /^THROTTL/i),
  row("OVERLOADED", "overloaded", /^OVERLOADED(?:_ERROR)?$/i),
  ...NETWORK_CODES.map((code) => row(code, "timeout")),
  row("UND_ERR", "timeout", /^UND_ERR_/i),
  // R-TT-2: TLS cannot be set up (certificate, handshake): the provider is unreachable, a model-scoped timeout.
  row(
    "TLS",
    "timeout",
    /^(?:CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT(?:_LOCALLY)?)|ERR_TLS_[A-Z_]+|ERR_SSL_[A-Z_]+|EPROTO)$/,
  ),
  row("DEADLINE_EXCEEDED", "timeout"),
  // R-EC-7: our own watchdog (AbortSignal.timeout and friends) is a timeout, not a caller abort.
  row("TimeoutError", "timeout"),
  // AWS Bedrock's exception names (the `x-amzn-ErrorType` header, an in-stream exception frame); the status
  // decides first when there is one, these when an exception arrives without one. ThrottlingException is THROTTL;
  // ValidationException has no row: its message says whether it is an overflow, a retired model or a bad body.
  row("ServiceUnavailableException", "overloaded"),
  row("ModelNotReadyException", "overloaded"),
  row("ModelTimeoutException", "timeout"),
  row("ModelStreamErrorException", "server_error", /^Model(?:Stream)?ErrorException$/i),
  row("InternalServerException", "server_error"),
  row("ResourceNotFoundException", "model_not_found"),
  row("AccessDeniedException", "auth", /^(?:AccessDenied|UnrecognizedClient|InvalidSignature)Exception$/i),
];
