import { describe, expect, it } from "vitest";
import { FallbackSummaryError, type AttemptRecord } from "./errors.js";
import { SUMMARY_ERROR_MAX_CHARS, formatSummaryMessage } from "./summary.js";

const attempts: AttemptRecord[] = [
  {
    provider: "anthropic",
    model: "claude-opus-4-6",
    profileId: "anthropic:work",
    reason: "rate_limit",
    status: 429,
    error: "429 Too Many Requests",
  },
  { provider: "openai", model: "gpt-4o", reason: "auth", error: "Provider openai has auth issue (skipping all models)", skipped: true },
  { provider: "openrouter", model: "meta-llama/llama-3.3-70b", reason: "timeout", error: "request timed out after 120s" },
];

describe("formatSummaryMessage", () => {
  it("R-FB-6: `All models failed (N): <p/m: error (reason)> | …`", () => {
    expect(formatSummaryMessage(attempts)).toBe(
      "All models failed (3): anthropic/claude-opus-4-6: 429 Too Many Requests (rate_limit) | " +
        "openai/gpt-4o: Provider openai has auth issue (skipping all models) (auth) | " +
        "openrouter/meta-llama/llama-3.3-70b: request timed out after 120s (timeout)",
    );
  });

  it("R-FB-6: N counts every recorded attempt, skipped ones included", () => {
    expect(formatSummaryMessage(attempts.slice(0, 2))).toMatch(/^All models failed \(2\): /);
  });

  it("R-FB-6: an attempt without a reason has no reason suffix; one without text still says something", () => {
    expect(formatSummaryMessage([{ provider: "ollama", model: "qwen3", error: "connect ECONNREFUSED 127.0.0.1:11434" }])).toBe(
      "All models failed (1): ollama/qwen3: connect ECONNREFUSED 127.0.0.1:11434",
    );
    expect(formatSummaryMessage([{ provider: "google", model: "gemini-2.5-pro", status: 500, error: "", reason: "server_error" }])).toBe(
      "All models failed (1): google/gemini-2.5-pro: HTTP 500 (server_error)",
    );
    expect(formatSummaryMessage([{ provider: "google", model: "gemini-2.5-pro", error: " \n " }])).toBe(
      "All models failed (1): google/gemini-2.5-pro: failed without an error message",
    );
  });

  it("R-FB-6: multi-line and very long error texts stay one bounded line", () => {
    const message = formatSummaryMessage([
      { provider: "openai", model: "gpt-4o", reason: "format", error: `bad request\n${"y".repeat(1000)}` },
    ]);
    expect(message).not.toContain("\n");
    const errorPart = message.slice("All models failed (1): openai/gpt-4o: ".length, -" (format)".length);
    expect(Array.from(errorPart)).toHaveLength(SUMMARY_ERROR_MAX_CHARS);
    expect(errorPart.endsWith("…")).toBe(true);
  });

  it("R-FB-6: zero attempts still yields a readable message", () => {
    expect(formatSummaryMessage([])).toBe("All models failed (0): no model could be attempted");
  });

  it("R-FB-6: the message is what FallbackSummaryError carries", () => {
    const error = new FallbackSummaryError(formatSummaryMessage(attempts), { attempts, soonestCooldownExpiry: 1_000 });
    expect(error.message).toBe(formatSummaryMessage(attempts));
    expect(error.attempts).toBe(attempts);
  });
});
