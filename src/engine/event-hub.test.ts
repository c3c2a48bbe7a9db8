import { describe, expect, it } from "vitest";
import type { DetourEvent, Logger, LogLevel } from "../ports/events.js";
import { EventHub } from "./event-hub.js";

function capturing(enabled: readonly LogLevel[]): { logger: Logger; lines: { level: LogLevel; message: string }[] } {
  const lines: { level: LogLevel; message: string }[] = [];
  return {
    lines,
    logger: { log: (level, message) => lines.push({ level, message }), isLevelEnabled: (level) => enabled.includes(level) },
  };
}

const decision = (overrides: Partial<Extract<DetourEvent, { type: "model_fallback_decision" }>>) =>
  ({ type: "model_fallback_decision", decision: "candidate_succeeded", fallbackStepFromModel: null, ...overrides }) as DetourEvent;

describe("EventHub log lines", () => {
  it("builds no line below the logger's level, and a healthy request's decision is debug", () => {
    const { logger, lines } = capturing(["info", "warn", "error"]);
    const hub = new EventHub(logger);
    const seen: DetourEvent[] = [];
    hub.on("*", (event) => seen.push(event));
    hub.emit(decision({}));
    hub.emit({ type: "run_started" } as DetourEvent);
    expect(lines).toEqual([]);
    // Listeners still get every event.
    expect(seen).toHaveLength(2);
  });

  it("failures and a success after a fallback stay at info", () => {
    const { logger, lines } = capturing(["info", "warn", "error"]);
    const hub = new EventHub(logger);
    hub.emit(decision({ decision: "candidate_failed" }));
    hub.emit(decision({ fallbackStepFromModel: "openai/gpt-a" }));
    expect(lines.map((line) => line.level)).toEqual(["info", "info"]);
  });
});
