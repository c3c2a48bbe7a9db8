import { describe, expect, it } from "vitest";
import { createStderrLogger, withoutEvents } from "./stderr-logger.js";

function capture() {
  const lines: string[] = [];
  return { stream: { write: (chunk: string) => lines.push(chunk) }, lines };
}

describe("CLI stderr logger", () => {
  it("R-OB-1: renders a decision event readably in text mode", () => {
    const { stream, lines } = capture();
    createStderrLogger(stream, "info").log("info", "model_fallback_decision", {
      decision: "candidate_failed",
      candidateModel: "openai/gpt-5",
      attemptIndex: 1,
      attemptTotal: 2,
      profileId: "openai:a",
      reason: "rate_limit",
      status: 429,
      nextCandidate: "anthropic/claude-sonnet-4-6",
    });
    expect(lines).toEqual([
      "detour info: model_fallback_decision candidate_failed openai/gpt-5 (1/2) [openai:a] rate_limit 429 → next anthropic/claude-sonnet-4-6\n",
    ]);
  });

  it("drops entries below the level and prints JSON lines in json format", () => {
    const { stream, lines } = capture();
    const logger = createStderrLogger(stream, "warn", "json");
    logger.log("info", "hidden");
    logger.log("warn", "shown", { provider: "openai" });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ level: "warn", msg: "shown", provider: "openai" });
  });

  it("R-OB-2: json logs censor secret-looking fields that slipped into an event", () => {
    const { stream, lines } = capture();
    createStderrLogger(stream, "info", "json").log("info", "oops", {
      credential: { type: "api_key", key: "sk-live-123456" },
      headers: { authorization: "Bearer sk-live-123456" },
    });
    expect(lines.join("")).not.toContain("sk-live-123456");
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ msg: "oops", credential: "[redacted]" });
  });

  it("R-OB-2: flat fields skip the redaction pass, yet a top-level secret name is still censored", () => {
    const { stream, lines } = capture();
    const logger = createStderrLogger(stream, "info", "json");
    logger.log("info", "POST /v1/chat/completions 200", { event: "http_request", status: 200, model: "openai/gpt-5" });
    logger.log("info", "oops", { token: "tok-live-123456", status: 200 });
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ msg: "POST /v1/chat/completions 200", status: 200, model: "openai/gpt-5" });
    expect(lines.join("")).not.toContain("tok-live-123456");
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({ token: "[redacted]" });
  });

  it("R-CL-1: a command drops the log lines of events it prints itself, and keeps the rest", () => {
    const { stream, lines } = capture();
    const logger = withoutEvents(createStderrLogger(stream, "info"), ["notice"]);
    logger.log("info", "↪️ Model Fallback: b/m (selected a/m; rate limit)", { event: "notice" });
    logger.log("warn", "No available auth profile for a", { event: "no_available_profile" });
    logger.log("info", "plain message");
    expect(lines).toEqual(["detour warn: No available auth profile for a\n", "detour info: plain message\n"]);
  });
});
