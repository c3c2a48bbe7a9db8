/** session_expired (R-EC-5): the provider-side conversation or session this request referred to is gone. */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `session_expired/${id}`, reason: "session_expired", pattern });

export const SESSION_EXPIRED_RULES: readonly MessageRule[] = [
  row(
    "session-not-found",
    /\b(?:session|conversation)\s+(?:not found|(?:has |is )?expired|(?:is )?invalid|is no longer valid|does not exist)\b/i,
  ),
  row("session-code", /\b(?:session|conversation)_(?:not_found|expired|invalid)\b/i),
  row("no-such-session", /\bno such (?:session|conversation)\b/i),
  // CLI back ends resuming a session: "No conversation found with session ID: 4f1c…" (Claude Code).
  row(
    "no-conversation-found",
    /\bno (?:conversation|session|thread) (?:was )?found\b|\b(?:session|conversation|thread) (?:id )?["'`]?[\w-]{4,80}["'`]? (?:was )?(?:not found|does not exist|has expired)\b/i,
  ),
  // OpenAI Responses API: a `previous_response_id` the server no longer keeps.
  row("previous-response-not-found", /\bprevious response with id\b[^\n]{0,80}?\bnot found\b|\bprevious_response_not_found\b/i),
];
