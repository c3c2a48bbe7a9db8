import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { TIMEOUT_RULES } from "./timeout.js";

const html = (title: string): string => `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

const rows = [
  row(
    "R-EC-5: timeout · undici Headers Timeout Error",
    { provider: "openai", message: "Headers Timeout Error" },
    "timeout",
    "timeout/timeout",
  ),
  row(
    "R-EC-5: timeout · OpenAI SDK request timed out",
    { provider: "openai", message: "Request timed out." },
    "timeout",
    "timeout/timed-out",
  ),
  row(
    "R-EC-5: timeout · Google deadline exceeded",
    { provider: "google", message: "Deadline exceeded while waiting for the model" },
    "timeout",
    "timeout/deadline-exceeded",
  ),
  row("R-EC-5: timeout · Node fetch failed", { provider: "ollama", message: "TypeError: fetch failed" }, "timeout", "timeout/fetch-failed"),
  row("R-EC-5: timeout · socket hang up", { provider: "anthropic", message: "socket hang up" }, "timeout", "timeout/socket-hang-up"),
  row(
    "R-EC-5: timeout · OpenAI SDK connection error",
    { provider: "openai", message: "Connection error." },
    "timeout",
    "timeout/connection-error",
  ),
  row(
    "R-EC-5: timeout · connection reset by peer",
    { provider: "groq", message: "Connection reset by peer" },
    "timeout",
    "timeout/connection-error",
  ),
  row(
    "R-EC-5: timeout · browser network error",
    { provider: "openrouter", message: "NetworkError when attempting to fetch resource." },
    "timeout",
    "timeout/network-error",
  ),
  row(
    "R-EC-5: timeout · stream closed",
    { provider: "anthropic", message: "stream closed before message_stop" },
    "timeout",
    "timeout/stream-closed",
  ),
  row(
    "R-EC-5: timeout · stream aborted",
    { provider: "google", message: "Stream aborted by upstream" },
    "timeout",
    "timeout/stream-closed",
  ),
  row(
    "R-EC-5: timeout · undici other side closed",
    { provider: "openai", message: "other side closed" },
    "timeout",
    "timeout/other-side-closed",
  ),
  row("R-EC-5: timeout · undici terminated", { provider: "openai", message: "terminated" }, "timeout", "timeout/terminated"),
  row(
    "R-EC-5: timeout · Ollama llama runner process has terminated",
    { provider: "ollama", message: "llama runner process has terminated: exit status 2" },
    "timeout",
    "timeout/terminated",
  ),
  row(
    "R-EC-5: timeout · connect ECONNREFUSED inside the text",
    { provider: "ollama", message: "request to http://127.0.0.1:11434/api/chat failed, reason: connect ECONNREFUSED 127.0.0.1:11434" },
    "timeout",
    "timeout/network-code-in-text",
  ),
  row(
    "R-EC-5: timeout · getaddrinfo EAI_AGAIN inside the text",
    { provider: "anthropic", message: "getaddrinfo EAI_AGAIN api.anthropic.com" },
    "timeout",
    "timeout/network-code-in-text",
  ),
  row(
    "R-EC-5: timeout · Unhandled stop reason: error",
    { provider: "openai-compatible", message: "Unhandled stop reason: error" },
    "timeout",
    "timeout/unhandled-stop-reason-error",
  ),
  row("R-EC-5: timeout · stop reason: error", { provider: "vllm", message: "stop reason: error" }, "timeout", "timeout/stop-reason-error"),
  row(
    "R-EC-5: timeout · reason: error",
    { provider: "lmstudio", message: "Stream ended with reason: error" },
    "timeout",
    "timeout/stop-reason-error",
  ),
  row(
    "R-EC-5: timeout · bare 'An unknown error occurred' (any provider)",
    { provider: "anthropic", message: "An unknown error occurred" },
    "timeout",
    "timeout/bare-unknown-error-occurred",
  ),
  row(
    "R-EC-5: timeout · 'Error: An unknown error occurred.'",
    { provider: "google", message: "Error: An unknown error occurred." },
    "timeout",
    "timeout/bare-unknown-error-occurred",
  ),
  row(
    "R-EC-5: timeout · 'An unknown error occurred' with more words is not the bare text",
    { provider: "google", message: "An unknown error occurred while rendering the chart" },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-5: timeout · Anthropic api_error Internal server error without a status",
    { provider: "anthropic", message: '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}' },
    "timeout",
    "timeout/transient-api-error",
  ),
  row(
    "R-EC-5: timeout · api_error unknown error, 520",
    { provider: "anthropic", message: '{"type":"error","error":{"type":"api_error","message":"unknown error, 520 (1000)"}}' },
    "timeout",
    "timeout/transient-api-error",
  ),
  row(
    "R-EC-5: timeout · api_error upstream error",
    { provider: "anthropic", message: '{"type":"error","error":{"type":"api_error","message":"upstream error"}}' },
    "timeout",
    "timeout/transient-api-error",
  ),
  row(
    "R-EC-5: timeout · api_error backend error",
    { provider: "anthropic", message: '{"type":"error","error":{"type":"api_error","message":"backend error"}}' },
    "timeout",
    "timeout/transient-api-error",
  ),
  row(
    "R-EC-5: timeout · api_error try again later",
    { provider: "anthropic", message: '{"type":"error","error":{"type":"api_error","message":"Please try again later"}}' },
    "timeout",
    "timeout/transient-api-error",
  ),
  row(
    "R-EC-5: timeout · api_error whose text is not transient stays unclassified",
    { provider: "anthropic", message: '{"type":"error","error":{"type":"api_error","message":"weird"}}' },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-5: timeout · plain Internal Server Error text",
    { provider: "ollama", message: "Internal Server Error" },
    "timeout",
    "timeout/transient-server-text",
  ),
  row(
    "R-EC-5: timeout · plain Bad Gateway text",
    { provider: "openrouter", message: "Bad Gateway" },
    "timeout",
    "timeout/transient-server-text",
  ),
  row(
    "R-EC-5: timeout · plain service unavailable without capacity words",
    { provider: "groq", message: "Service Unavailable" },
    "timeout",
    "timeout/transient-server-text",
  ),
  row(
    "R-EC-5: timeout · HTML error page with status 499",
    { provider: "openai", status: 499, message: html("499 Client Closed Request") },
    "timeout",
    "timeout/html-error-page",
  ),
  row(
    "R-EC-5: timeout · HTML page without a status is not a timeout by itself",
    { provider: "openai", message: html("Just a moment...") },
    "unclassified",
    "fallback/unclassified",
  ),
  row(
    "R-EC-5: timeout · socket connection closed unexpectedly",
    { provider: "bun", message: "The socket connection was closed unexpectedly" },
    "timeout",
    "timeout/other-side-closed",
  ),
  row(
    "R-EC-5: timeout · stream ended without sending any chunks",
    { provider: "openai-compatible", message: "Request ended without sending any chunks" },
    "timeout",
    "timeout/no-chunks",
  ),
  row(
    "R-EC-5: timeout · getaddrinfo ENOTFOUND",
    { provider: "anthropic", message: "getaddrinfo ENOTFOUND api.anthropic.com" },
    "timeout",
    "timeout/dns-failure",
  ),
  row(
    "R-EC-5: timeout · could not resolve host",
    { provider: "ollama", message: "Could not resolve host: ollama.internal" },
    "timeout",
    "timeout/dns-failure",
  ),
  row(
    "R-EC-5: timeout · the operation was aborted (our watchdog)",
    { provider: "ollama", message: "This operation was aborted" },
    "timeout",
    "timeout/operation-aborted",
  ),
  row(
    "R-EC-5: timeout · Envoy upstream connect error",
    { provider: "openai", message: "upstream connect error or disconnect/reset before headers" },
    "timeout",
    "timeout/connection-error",
  ),
  row(
    "R-EC-5: timeout · stop reason: network_error",
    { provider: "openai-compatible", message: "stop reason: network_error" },
    "timeout",
    "timeout/stop-reason-error",
  ),
  row(
    "R-EC-5: timeout · Chinese provider request timed out",
    { provider: "qwen", message: "请求超时，请稍后重试" },
    "timeout",
    "timeout/cjk-transient",
  ),
];

describe("timeout family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every timeout pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    TIMEOUT_RULES.map((rule) => rule.id),
  );
});
