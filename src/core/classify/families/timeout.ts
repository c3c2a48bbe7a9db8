/**
 * timeout (R-EC-5): the call did not complete for transport reasons or with a transient server text.
 * Failover-worthy; the same profile is retried first (R-RN-4).
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp, extra: Partial<MessageRule> = {}): MessageRule => ({
  id: `timeout/${id}`,
  reason: "timeout",
  pattern,
  ...extra,
});

export const TIMEOUT_RULES: readonly MessageRule[] = [
  row("timeout", /\btime-?out/i),
  row("timed-out", /\btimed out\b/i),
  row("deadline-exceeded", /\bdeadline[ _]exceeded\b/i),
  row("fetch-failed", /\bfetch failed\b/i),
  row("socket-hang-up", /\bsocket hang up\b/i),
  row("connection-error", /\bconnection (?:error|reset|closed|terminated)\b/i),
  row("network-error", /\bnetwork ?error\b/i),
  row("stream-closed", /\bstream (?:was )?(?:closed|aborted|ended unexpectedly)\b/i),
  row("other-side-closed", /\bother side closed\b|\bpremature close\b/i),
  row("terminated", /\bterminated\b/i),
  row("network-code-in-text", /\b(?:ETIMEDOUT|ESOCKETTIMEDOUT|ECONNRESET|ECONNABORTED|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|EHOSTDOWN|ENETRESET|EPIPE|EAI_AGAIN|UND_ERR_[A-Z_]+)\b/),
  // OpenAI-compatible servers that end a stream with an error stop reason.
  row("unhandled-stop-reason-error", /\bunhandled stop reason: error\b/i),
  row("stop-reason-error", /\breason:\s*error\b/i),
  // The shared model runtime's wrapper text when a stream ends without details (any provider).
  row("bare-unknown-error-occurred", /^(?:error:\s*)?an unknown error occurred\.?$/i, { bare: true }),
  row("transient-api-error", /\binternal server error\b|\bunknown error,? 5\d\d\b|\bupstream error\b|\bbackend error\b|\bbad gateway\b|\bservice unavailable\b|\btry again later\b/i, {
    requires: /\bapi_error\b/i,
  }),
  row("transient-server-text", /\binternal server error\b|\bbad gateway\b|\bservice (?:is )?(?:temporarily )?unavailable\b/i),
  row("html-error-page", /<(?:!doctype|html)/i, { htmlPage: true, statuses: [408, 499, [500, 599]] }),
];
