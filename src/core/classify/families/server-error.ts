/**
 * server_error (R-EC-5): a structured server-error payload (a typed error from the provider's own
 * code, not a proxy's page). Reached only after billing and auth, so those texts win. With a 5xx status
 * this family decides between `server_error` and `timeout` (R-EC-3).
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `server_error/${id}`, reason: "server_error", pattern });

export const SERVER_ERROR_RULES: readonly MessageRule[] = [
  row("server-error-type", /\b(?:type|code)\b"?\s*[:=]\s*"?(?:server_error|internal_server_error)\b/i),
  row("upstream-error", /\bupstream_error\b/i),
  // Google's `"status": "INTERNAL"`.
  row("google-internal", /\b(?:status|code)\b"?\s*[:=]\s*"?internal\b(?!_)/i),
  row("aws-internal-server-exception", /\binternalserverexception\b/i),
];
