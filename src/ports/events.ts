/**
 * Logging port. The runner emits typed events; one place (engine/) turns them into logs and metrics.
 * Loggers receive structured objects and must never be handed secrets (R-OB-2).
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { log() {} };
