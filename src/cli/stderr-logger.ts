/**
 * The CLI's logger: one line per entry on stderr, so stdout stays clean for answers and `--json`.
 * Entries below the level (DETOUR_LOG_LEVEL, default info) are dropped. Loggers never receive secrets
 * (ports/events.ts), so fields are printed as they come.
 */
import type { Logger, LogLevel } from "../ports/events.js";
import type { OutputStream } from "./output.js";

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createStderrLogger(stderr: OutputStream, minLevel: LogLevel, format: "text" | "json" = "text"): Logger {
  return {
    log(level, message, fields) {
      if (RANK[level] < RANK[minLevel]) return;
      if (format === "json") {
        stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
        return;
      }
      // Structured fields (full decision events) are for debugging; a person reads the message.
      const extra = minLevel === "debug" && fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
      stderr.write(`detour ${level}: ${message}${extra}\n`);
    },
  };
}
