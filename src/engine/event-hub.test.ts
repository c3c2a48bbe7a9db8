import { describe, expect, it } from "vitest";
import { silentLogger, type DetourEvent, type Logger, type LogLevel } from "../ports/events.js";
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

describe("EventHub listeners", () => {
  const started = { type: "run_started" } as DetourEvent;
  const finished = { type: "run_finished" } as DetourEvent;

  it("delivers to the type's listeners, then to every-event listeners, each once however often it subscribed", () => {
    const hub = new EventHub(silentLogger);
    const seen: string[] = [];
    const all = (event: DetourEvent) => seen.push(`*:${event.type}`);
    hub.on("*", all);
    hub.on("*", all);
    hub.on("run_started", () => seen.push("typed"));
    hub.emit(started);
    hub.emit(finished);
    expect(seen).toEqual(["typed", "*:run_started", "*:run_finished"]);
  });

  it("unsubscribes, once and for good, and a listener that throws does not stop the next", () => {
    const warnings: string[] = [];
    const hub = new EventHub({ log: (_level, message) => warnings.push(message), isLevelEnabled: (level) => level !== "debug" });
    const seen: string[] = [];
    const leave = hub.on("*", () => seen.push("first"));
    hub.on("*", () => {
      throw new Error("listener bug");
    });
    hub.on("*", () => seen.push("last"));
    hub.emit(started);
    leave();
    leave();
    hub.emit(started);
    expect(seen).toEqual(["first", "last", "last"]);
    expect(warnings.filter((message) => message.includes("threw"))).toHaveLength(2);
  });

  it("a listener that subscribes or leaves during an emit changes the next emit, not this one", () => {
    const hub = new EventHub(silentLogger);
    const seen: string[] = [];
    let leaveSecond = () => {};
    hub.on("*", () => {
      seen.push("first");
      leaveSecond();
      hub.on("run_finished", () => seen.push("added"));
    });
    leaveSecond = hub.on("*", () => seen.push("second"));
    hub.emit(started);
    hub.emit(finished);
    expect(seen).toEqual(["first", "second", "added", "first"]);
  });
});
