import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { SESSION_EXPIRED_RULES } from "./session-expired.js";

const rows = [
  row(
    "R-EC-5: session_expired · session not found",
    { provider: "openai-codex", message: "Session not found" },
    "session_expired",
    "session_expired/session-not-found",
  ),
  row(
    "R-EC-5: session_expired · conversation has expired",
    { provider: "chatgpt", message: "This conversation has expired, start a new one" },
    "session_expired",
    "session_expired/session-not-found",
  ),
  row(
    "R-EC-5: session_expired · session invalid",
    { provider: "copilot", message: "session invalid: please retry with a new session" },
    "session_expired",
    "session_expired/session-not-found",
  ),
  row(
    "R-EC-5: session_expired · session_not_found code",
    { provider: "copilot", message: '{"error":{"code":"session_not_found","message":"gone"}}' },
    "session_expired",
    "session_expired/session-code",
  ),
  row(
    "R-EC-5: session_expired · no such session",
    { provider: "acp", message: "no such session: 9f1c" },
    "session_expired",
    "session_expired/no-such-session",
  ),
  row(
    "R-EC-5: session_expired · OpenAI Responses previous response not found",
    { provider: "openai", status: 400, message: "Previous response with id 'resp_67ccd2bed1ec8190b14f964abc054267' not found." },
    "session_expired",
    "session_expired/previous-response-not-found",
  ),
];

describe("session_expired family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every session_expired pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    SESSION_EXPIRED_RULES.map((rule) => rule.id),
  );
});
