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
  row(
    "connection-error",
    /\bconnection (?:error|reset|closed|terminated|refused|lost|aborted|dropped)\b|\bupstream connect error\b|\breset before headers\b/i,
  ),
  row("network-error", /\bnetwork ?error\b|\bnetwork request failed\b/i),
  row("stream-closed", /\bstream (?:was )?(?:closed|aborted|ended unexpectedly|disconnected)\b/i),
  // A stream that ended before its first chunk: "request ended without sending any chunks".
  row(
    "no-chunks",
    /\bwithout (?:sending|receiving|any) (?:any )?chunks?\b|\bno chunks? (?:were |was )?(?:sent|received)\b|\bended without (?:sending |receiving )?any (?:data|events?|content)\b/i,
  ),
  // The fetch/undici abort text when our own watchdog fired (a caller abort is flagged and handled first, R-EC-7).
  row("operation-aborted", /\boperation was aborted\b/i),
  row(
    "other-side-closed",
    /\bother side closed\b|\b(?:socket|connection|stream|websocket)\b[^\n]{0,30}?\bclosed unexpectedly\b|\bpremature close\b|\bERR_STREAM_PREMATURE_CLOSE\b/i,
  ),
  row("terminated", /\bterminated\b/i),
  row(
    "network-code-in-text",
    /\b(?:ETIMEDOUT|ESOCKETTIMEDOUT|ECONNRESET|ECONNABORTED|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|EHOSTDOWN|ENETRESET|EPIPE|EAI_AGAIN|UND_ERR_[A-Z_]+)\b/,
  ),
  // DNS: `getaddrinfo ENOTFOUND api.example.com`, "Could not resolve host".
  row(
    "dns-failure",
    /\bENOTFOUND\b|\bgetaddrinfo\b|\bcould not resolve (?:host|hostname)\b|\bname or service not known\b|\bdns (?:lookup|resolution) failed\b/i,
  ),
  // OpenAI-compatible servers that end a stream with an error stop reason.
  row("unhandled-stop-reason-error", /\bunhandled stop reason:\s*(?:error|abort(?:ed)?|malformed_response|network_error)\b/i),
  row("stop-reason-error", /\breason:\s*(?:error|abort(?:ed)?|malformed_response|network_error)\b/i),
  // OpenRouter relays an upstream's own stop: "Provider finish_reason: network_error".
  row("finish-reason-error", /\bfinish_reason\W{0,4}(?:error|abort(?:ed)?|malformed_response|network_error)\b/i),
  // OpenAI Codex: a bare "Request failed", or "Request failed after repeated internal retries." A 400/422 with
  // the same words is a rejected request (format), not a transient one.
  row("bare-request-failed", /^(?:error:\s*)?request failed\.?$/i, { bare: true, unlessStatuses: [400, 422] }),
  row(
    "request-failed-after-retries",
    /\brequest failed after (?:\d+ |repeated |several |multiple |too many )?(?:internal )?(?:retries|retry attempts|attempts)\b/i,
  ),
  // The shared model runtime's wrapper text when a stream ends without details (any provider).
  row("bare-unknown-error-occurred", /^(?:error:\s*)?an unknown error occurred\.?$/i, { bare: true }),
  row(
    "transient-api-error",
    /\binternal server error\b|\bunknown error,? 5\d\d\b|\bupstream error\b|\bbackend error\b|\bbad gateway\b|\bservice unavailable\b|\btry again later\b|\ban unexpected error (?:has )?occurred\b/i,
    {
      requires: /\bapi_error\b/i,
    },
  ),
  // Google's status name beside a 5xx code in plain text ("INTERNAL: … code:500"): no structured body, so a
  // transport-level failure (R-EC-3); a structured `"status": "INTERNAL"` body is server_error and read earlier.
  row("internal-code-5xx", /\binternal\b[^\n]{0,200}?\bcode\W{0,3}5\d\d\b/i),
  row("transient-server-text", /\binternal server error\b|\bbad gateway\b|\bservice (?:is )?(?:temporarily )?unavailable\b/i),
  // Chinese providers: network error/exception, request/connection timed out, service temporarily
  // unavailable, service busy.
  row("cjk-transient", /网络错误|网络异常|请求超时|连接超时|连接错误|服务暂时不可用|服务繁忙/),
  row("html-error-page", /<(?:!doctype|html)/i, { htmlPage: true, statuses: [408, 410, 499, [500, 599]] }),
];
